import { describe, expect, it } from 'vitest';
import { runPageCommand } from '../../bridge/mcp/page-command.js';
import { ToolError, type ToolCall } from '../../bridge/mcp/tool.js';
import { TOOLS } from '../../bridge/mcp/tools/index.js';
import {
  PAGE_COMMAND_NAMES,
  PageCommands,
  pageCommand,
  type Json,
  type PageCommandName,
} from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { openWindow } from '../helpers/window.js';

/** The dedicated tools that run a page command, and their (first) command, from the command descriptors. */
const PAGE_HALVES = new Map<string, PageCommandName>();
for (const name of PAGE_COMMAND_NAMES) {
  const { tool } = pageCommand(name);
  if (tool !== 'page_exec' && !PAGE_HALVES.has(tool)) PAGE_HALVES.set(tool, name);
}
/** Tool arguments that deliberately differ from the command's (the ask's countdown is not the picker's). */
const OWN_ARGS = new Set(['pageId', 'frameId', 'timeoutMs', 'wait']);

describe('tool schemas live with their tools (the type refusals are in tool-schemas.test-d.ts)', () => {
  it("a dedicated tool's arguments are its page command's own schemas, so limits cannot drift", () => {
    expect([...PAGE_HALVES.keys()].sort()).toEqual([
      'form_fill',
      'page_logs',
      'page_snapshot',
      'self_ui',
      'user_notify',
      'user_pick_element',
    ]);
    for (const [toolName, cmd] of PAGE_HALVES) {
      const tool = TOOLS.find((t) => t.name === toolName);
      const toolShape: Record<string, unknown> = tool?.inputSchema.shape ?? {};
      const commandShape: Record<string, unknown> = PageCommands[cmd].shape;
      // a command without arguments that a tool sends on its way (page_logs' Watch.flush) is no input of the tool
      if (!Object.keys(commandShape).length) continue;
      for (const [key, schema] of Object.entries(toolShape)) {
        if (OWN_ARGS.has(key)) continue;
        expect(schema, `${toolName}.${key} is ${cmd}.${key}`).toBe(commandShape[key]);
      }
      for (const key of Object.keys(commandShape)) {
        if (key !== 'settleMs') expect(toolShape, `${toolName} takes ${cmd}'s ${key}`).toHaveProperty(key);
      }
    }
  });
});

describe('arguments a page would refuse fail before anything happens', () => {
  it('user_pick_element with a 3,000-character prompt is a tool error naming the limit, and no card opens', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const received: string[] = [];
    await ScriptedPage.connect(bridge.url, {
      handler: (cmd) => {
        received.push(cmd);
        return { picked: false, reason: 'cancelled' };
      },
    });
    const agent = await connectAgent(bridge.url);

    const result = await callTool(agent, 'user_pick_element', { prompt: 'x'.repeat(3000) });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/field "prompt".*2000/);
    expect(result.structuredContent).toMatchObject({ field: 'prompt' });

    // the next card the window sees is the next question, not a picker for the refused one
    await callTool(agent, 'user_confirm', { prompt: 'Still there?', async: true });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_confirm', prompt: 'Still there?' });
    expect(window.stream.events.filter((e) => e.event === 'ask')).toHaveLength(1);
    expect(received).toEqual([]);
  });

  it('user_notify with a body longer than User.notify takes is refused before the window is notified', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const agent = await connectAgent(bridge.url);
    const result = await callTool(agent, 'user_notify', { body: 'y'.repeat(4001) });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/field "body".*4000/);
    const ok = await callTool(agent, 'user_notify', { body: 'done' });
    expect(ok.isError).toBeFalsy();
    expect((await window.stream.next('notify')).data).toMatchObject({ body: 'done' });
    expect(window.stream.events.filter((e) => e.event === 'notify')).toHaveLength(1);
  });

  it('runPageCommand checks the arguments against the command schema before sending', async () => {
    const bridge = await startBridge();
    const received: Json[] = [];
    const scripted = await ScriptedPage.connect(bridge.url, {
      handler: (_cmd, args) => {
        received.push(args);
        return { ok: true };
      },
    });
    const page = bridge.context.pages.get(scripted.pageId);
    if (!page) throw new Error('the scripted page is not registered');
    const agent = bridge.context.agents.ensure('runner', { transport: 'stateless' });
    const call: ToolCall = {
      bridge: bridge.context,
      agent,
      signal: new AbortController().signal,
      progress: async () => undefined,
      structured: true,
      bindAgent: async () => agent,
      claimant: { stateless: true, humanToken: false, ownName: () => false },
    };
    const refused = runPageCommand(call, page, 'User.pick', { prompt: 'z'.repeat(2001) });
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow(/User\.pick args field "prompt"/);
    await expect(runPageCommand(call, page, 'UI.scan', {})).resolves.toEqual({ ok: true });
    expect(received).toEqual([{}]);
  });
});
