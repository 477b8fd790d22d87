import { describe, expect, it } from 'vitest';
import { PUBLIC_COMMANDS, STRUCTURED_RESULTS } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';

/**
 * Issue 35: Claude Code, Codex and VS Code show a result's structuredContent to the model in place of its text, so a
 * result carries only the text written for a model unless a program asks for the JSON.
 */
describe('what a model reads of a tool result', () => {
  it('is the text alone, for a result and for an error, unless the caller asks for the JSON', async () => {
    const bridge = await startBridge();
    const model = await connectAgent(bridge.url, { clientName: 'model-client', structured: false });
    const status = await callTool(model, 'bridge_status');
    expect(status.structuredContent).toBeUndefined();
    expect(resultText(status)).toMatch(/^0 page\(s\) to drive/);
    const bad = await callTool(model, 'page_logs', { limit: 0 });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toBeUndefined();
    expect(resultText(bad)).toContain('field "limit"');
  });

  it('carries the JSON for a client that declares ai.aiti/structured, and for one call that asks in its _meta', async () => {
    const bridge = await startBridge();
    const program = await connectAgent(bridge.url, { clientName: 'a-program' });
    expect((await callTool(program, 'bridge_status')).structuredContent).toMatchObject({ you: 'a-program' });
    const model = await connectAgent(bridge.url, { clientName: 'model-client', structured: false });
    const once = await model.callTool({ name: 'bridge_status', arguments: {}, _meta: { [STRUCTURED_RESULTS]: true } });
    expect(once.structuredContent).toMatchObject({ you: 'model-client' });
    expect((await callTool(model, 'bridge_status')).structuredContent).toBeUndefined();
  });

  it("ends with the unread notice after the human's push, which the model reads", async () => {
    const bridge = await startBridge();
    const model = await connectAgent(bridge.url, { clientName: 'model-client', structured: false });
    await callTool(model, 'bridge_status');
    const push = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { to: 'model-client', text: 'use the staging database' },
    });
    expect(push.status).toBe(200);
    const next = await callTool(model, 'bridge_status');
    expect(next.structuredContent).toBeUndefined();
    expect(resultText(next).split('\n').at(-1)).toMatch(
      /^📬 1 unread message in your AITI inbox \(newest, from the human: "use the staging database"\) — call aiti_inbox\.$/,
    );
  });

  it('page_exec {"cmd":"help"} gives every command with its args, which the description only names', async () => {
    const bridge = await startBridge();
    const model = await connectAgent(bridge.url, { structured: false });
    const help = resultText(await callTool(model, 'page_exec', { cmd: 'help' }));
    const lines = help.split('\n');
    expect(lines.map((line) => line.split(' ')[0])).toEqual([...PUBLIC_COMMANDS]);
    expect(help).toContain('Input.click {target, button?: left | middle | right}');
    expect(help).toMatch(/Runtime\.evaluate .* \(asks the human first: it runs script in the page\)/);
  });
});

describe('the tool definitions a client puts in front of its model', () => {
  it('fit in 9,000 characters, written as Claude Code sends them, with every parameter still there', async () => {
    const bridge = await startBridge();
    const model = await connectAgent(bridge.url, { structured: false });
    const { tools } = await model.listTools();
    // Claude Code: {name: "mcp__<server>__<tool>", description, input_schema} per tool, every turn
    const sent = tools.map((t) =>
      JSON.stringify({ name: `mcp__aiti__${t.name}`, description: t.description, input_schema: t.inputSchema }),
    );
    expect(sent.join('').length).toBeLessThanOrEqual(9000);
    const formFill = tools.find((t) => t.name === 'form_fill');
    expect(Object.keys(formFill?.inputSchema.properties ?? {}).sort()).toEqual([
      'button',
      'dialog',
      'fields',
      'frameId',
      'pageId',
      'pressAnyway',
    ]);
    // what the schema no longer says is still checked, and the error names the limit
    const long = await callTool(model, 'form_fill', { fields: { Email: 'x' }, dialog: 'd'.repeat(1025) });
    expect(resultText(long)).toMatch(/dialog.*1024/);
  });
});
