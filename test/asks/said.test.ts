import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { AskRecord, MessagesAnswer, type AskUpdate, type Json } from '../../bridge/protocol/index.js';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { openWindow } from '../helpers/window.js';
import { pairDevice } from '../helpers/device.js';

/** The ask records History shows, as the window reads them from GET /bridge/messages. */
async function records(bridge: Bridge): Promise<AskRecord[]> {
  const answer = await http(`${bridge.url}/bridge/messages?limit=100`, { token: bridge.token });
  return MessagesAnswer.parse(answer.body)
    .messages.filter((m) => m.kind === 'ask')
    .map((m) => AskRecord.parse(m.payload));
}

describe('what the bridge says to the human is a code the window translates', () => {
  it("a page command's question comes as a code with its values; its record keeps it, the script, and the desk", async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const page = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:3000/app', handler: () => 1 });
    const agent = await connectAgent(bridge.url, { clientName: 'codex' });
    const script = 'fetch("/api/orders",{method:"DELETE"});\nlocalStorage.clear()';
    const call = agent.callTool({
      name: 'page_exec',
      arguments: { cmd: 'Runtime.evaluate', args: { expression: script } },
    });
    const card = await window.nextAsk();
    expect(card.promptSaid).toEqual({
      code: 'page_script',
      values: { agent: 'codex', page: 'http://localhost:3000/app' },
    });
    // the agent's own words stay English for the agent and the logs
    expect(card.prompt).toBe('codex wants to run a script in the page on http://localhost:3000/app');
    expect((await window.act({ askId: card.askId, action: 'answer', value: false })).status).toBe(200);
    expect(((await call) as CallToolResult).isError).toBe(true);
    const [record] = await records(bridge);
    expect(record).toMatchObject({
      kind: 'page_command',
      status: 'answered',
      value: false,
      decidedBy: 'human',
      decidedOn: { window: 'desk' },
      command: { cmd: 'Runtime.evaluate', args: { expression: script } },
      promptSaid: { code: 'page_script' },
    });
    expect(page.pageId).toBeTruthy();
  });

  it('a time-out says how long as a code: no_answer_within, with the seconds', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?', timeoutMs: 1000, async: true } });
    await window.nextAsk();
    const ended = (await window.stream.next('ask_update', 10_000)).data as AskUpdate;
    expect(ended.outcome).toMatchObject({
      status: 'timed_out',
      decidedBy: 'bridge',
      textSaid: { code: 'no_answer_within', values: { seconds: 1 } },
    });
    expect(ended.outcome?.decidedOn).toBeUndefined();
  });

  it('an answer from a paired phone names the phone on the record and in the ending every window hears', async () => {
    const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
    const window = await openWindow(bridge);
    const { token: phone } = await pairDevice(bridge, 'Ana’s Pixel');
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Ship it?', async: true } });
    const card = await window.nextAsk();
    const answered = await http(`${bridge.remote?.url}/bridge/answer`, {
      token: phone,
      body: { askId: card.askId, action: 'answer', value: true },
    });
    expect(answered.status).toBe(200);
    const ended = (await window.stream.next('ask_update', 10_000)).data as AskUpdate;
    expect(ended.outcome?.decidedOn).toEqual({ window: 'device', device: 'Ana’s Pixel' });
    const [record] = await records(bridge);
    expect(record?.decidedOn).toEqual({ window: 'device', device: 'Ana’s Pixel' });
  });

  it('a pick that ends on the page says how as a code: closed with Esc, timed out, replaced, or failed', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const endings: Record<string, Json> = {
      closed: { picked: false, reason: 'cancelled' },
      late: { picked: false, reason: 'timeout' },
      replaced: { picked: false, reason: 'replaced' },
      odd: { nothing: 'like an element' },
    };
    const page = await ScriptedPage.connect(bridge.url, {
      url: 'http://localhost:3000/app',
      handler: (_cmd, args) => endings[String((args as { prompt?: string }).prompt)] ?? null,
    });
    const agent = await connectAgent(bridge.url, { clientName: 'codex' });
    const said: Record<string, unknown> = {};
    for (const prompt of Object.keys(endings)) {
      await agent.callTool({ name: 'user_pick_element', arguments: { pageId: page.pageId, prompt } });
      await window.nextAsk();
      const ended = (await window.stream.next('ask_update', 10_000)).data as AskUpdate;
      said[prompt] = ended.outcome?.textSaid?.code;
    }
    expect(said).toEqual({
      closed: 'pick_closed_on_page',
      late: 'pick_timed_out_on_page',
      replaced: 'pick_replaced',
      odd: 'pick_failed',
    });
  });
});
