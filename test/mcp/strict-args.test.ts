import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../bridge/mcp/tools/index.js';
import { describeZodError, PAGE_COMMAND_NAMES, PageCommands, PUBLIC_COMMANDS } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';

async function bridgeWithPage() {
  const bridge = await startBridge();
  const received: string[] = [];
  await ScriptedPage.connect(bridge.url, {
    handler: (cmd) => {
      received.push(cmd);
      return { ok: true };
    },
  });
  const agent = await connectAgent(bridge.url);
  return { bridge, agent, received };
}

describe('unknown argument names are errors that say what was meant', () => {
  it('page_snapshot {"pageid"} names the key, suggests pageId and lists the known ones; nothing reaches the page', async () => {
    const { agent, received } = await bridgeWithPage();
    const result = await callTool(agent, 'page_snapshot', { pageid: 'p1' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(
      'page_snapshot: unknown argument "pageid"; did you mean "pageId"? known: pageId, frameId, target, depth',
    );
    expect(result.structuredContent).toMatchObject({ field: 'pageid' });
    expect(received).toEqual([]);
  });

  it('page_exec names an unknown command argument as args.<key>', async () => {
    const { agent, received } = await bridgeWithPage();
    const result = await callTool(agent, 'page_exec', { cmd: 'Input.click', args: { target: 'e1', buton: 'left' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('unknown argument "buton"; did you mean "button"? known: target, button');
    expect(result.structuredContent).toMatchObject({ field: 'args.buton' });
    expect(received).toEqual([]);
  });

  it('form_fill {"frameId"} goes to that frame (issue 17), never fills the main page instead', async () => {
    const { agent, received } = await bridgeWithPage();
    const result = await callTool(agent, 'form_fill', { frameId: 'f1', fields: { Name: 'Ada' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/page p\d+ has no frame "f1"/);
    expect(received).toEqual([]);
  });

  it('form_fill {"frameid"} is refused, naming frameId', async () => {
    const { agent, received } = await bridgeWithPage();
    const result = await callTool(agent, 'form_fill', { frameid: 'f1', fields: { Name: 'Ada' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/unknown argument "frameid"; did you mean "frameId"\? known: .*fields/);
    expect(received).toEqual([]);
  });

  it('form_fill refuses a multi-select value that is not a list of option labels, naming the field; nothing reaches the page', async () => {
    const { agent, received } = await bridgeWithPage();
    for (const bad of [['Paris', 3], Array.from({ length: 201 }, (_, i) => `City ${i}`), [{ label: 'Paris' }]]) {
      const result = await callTool(agent, 'form_fill', { fields: { Cities: bad } });
      expect(result.isError, JSON.stringify(bad).slice(0, 40)).toBe(true);
      expect(resultText(result)).toMatch(/fields\.Cities.*an array of up to 200 option labels/);
    }
    expect(received).toEqual([]);
  });

  it('form_fill refuses a field key that names nothing, saying so, and fills nothing of the call', async () => {
    const { agent, received } = await bridgeWithPage();
    for (const key of ['', '  ', ' *:'] as const) {
      const result = await callTool(agent, 'form_fill', { fields: { Name: 'Ada', [key]: 'x' } });
      expect(result.isError, JSON.stringify(key)).toBe(true);
      expect(resultText(result)).toContain(
        'field "fields": a field key names a label, placeholder, name, css=selector or ref; it cannot be empty or only spaces, colons and stars',
      );
    }
    // a label's own trailing star is still a key
    expect((await callTool(agent, 'form_fill', { fields: { 'Name *': 'Ada' } })).isError).toBeFalsy();
    expect(received).toHaveLength(1);
  });

  it('every tool of the registry refuses an unknown argument, and lists it in tools/list as closed', async () => {
    const { agent } = await bridgeWithPage();
    const listed = new Map((await agent.listTools()).tools.map((t) => [t.name, t.inputSchema]));
    for (const tool of TOOLS) {
      expect(listed.get(tool.name), tool.name).toMatchObject({ type: 'object', additionalProperties: false });
      const result = await callTool(agent, tool.name, { notAnArgument: 1 });
      expect(result.isError, tool.name).toBe(true);
      expect(resultText(result), tool.name).toContain('unknown argument "notAnArgument"');
    }
  });

  it('every page command refuses an unknown argument with the known ones listed', () => {
    for (const name of PAGE_COMMAND_NAMES) {
      const parsed = PageCommands[name].safeParse({ notAnArgument: 1 });
      expect(parsed.success, name).toBe(false);
      if (parsed.success) continue;
      const { message, field } = describeZodError(parsed.error);
      expect(message, name).toMatch(/^unknown argument "notAnArgument"; known: /);
      expect(field, name).toBe('notAnArgument');
    }
    expect(PUBLIC_COMMANDS.length).toBeGreaterThan(20);
  });
});
