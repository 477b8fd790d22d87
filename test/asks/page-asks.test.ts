import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { AskOutcome, Json } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

const PICKED = {
  picked: true,
  selector: 'header > h1',
  ref: 'e3',
  tag: 'h1',
  text: 'Welcome',
  rect: { x: 10, y: 20, width: 300, height: 40 },
};

/** A page whose User.pick answers when the test says so, like a human clicking after a while. */
function pickerPage() {
  const received: Array<{ cmd: string; args: Json }> = [];
  let answer: (value: Json) => void = () => undefined;
  const answered = new Promise<Json>((resolve) => (answer = resolve));
  const handler = async (cmd: string, args: Json) => {
    received.push({ cmd, args });
    if (cmd === 'User.pick') return answered;
    return { ok: true };
  };
  return { received, answer, handler };
}

async function call(client: Awaited<ReturnType<typeof connectAgent>>, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 })) as CallToolResult;
}

describe('asks that involve the page', () => {
  it('user_pick_element opens the picker on the page and returns the element the human clicked', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const picker = pickerPage();
    const page = await ScriptedPage.connect(bridge.url, { handler: picker.handler });
    const agent = await connectAgent(bridge.url);
    const result = call(agent, 'user_pick_element', { prompt: 'Click the title' });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_pick_element', pageId: page.pageId, prompt: 'Click the title' });
    await waitFor(() => picker.received.length > 0, 5000, 'User.pick on the page');
    expect(picker.received[0]).toEqual({ cmd: 'User.pick', args: { prompt: 'Click the title' } });
    picker.answer(PICKED);
    const outcome = (await result).structuredContent as AskOutcome;
    expect(outcome).toMatchObject({
      status: 'answered',
      value: { selector: 'header > h1', ref: 'e3', tag: 'h1', text: 'Welcome' },
    });
    expect(outcome.hint).toMatch(/ref or selector/);
    expect((await window.stream.next('ask_update')).data).toMatchObject({ askId: card.askId, status: 'answered' });
  });

  it('Esc in the picker is a rejection; the window can reject a pick too', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const picker = pickerPage();
    await ScriptedPage.connect(bridge.url, { handler: picker.handler });
    const agent = await connectAgent(bridge.url);
    const escaped = call(agent, 'user_pick_element', { prompt: 'Click the title' });
    await window.nextAsk();
    await waitFor(() => picker.received.length > 0, 5000, 'User.pick on the page');
    picker.answer({ picked: false, reason: 'cancelled' });
    expect((await escaped).structuredContent).toMatchObject({ status: 'rejected', text: expect.stringMatching(/Esc/) });

    const slow = pickerPage();
    await ScriptedPage.connect(bridge.url, { handler: slow.handler });
    const rejected = call(agent, 'user_pick_element', { prompt: 'Click the menu', pageId: 'p2' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'reject', reason: 'not_now' });
    expect((await rejected).structuredContent).toMatchObject({ status: 'rejected', reason: 'not_now' });
  });

  it('user_pick_element without a connected page says how to connect one', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url);
    const result = await call(agent, 'user_pick_element', { prompt: 'Click the title' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: expect.stringContaining('no page is connected') });
    expect(bridge.context.asks.views()).toEqual([]);
  });

  it('user_notify on a page sends User.notify there as well as to the window', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const picker = pickerPage();
    const page = await ScriptedPage.connect(bridge.url, { handler: picker.handler });
    const agent = await connectAgent(bridge.url);
    const result = await call(agent, 'user_notify', { pageId: page.pageId, body: 'Reload to see the fix' });
    expect(result.structuredContent).toMatchObject({ notified: true, pageId: page.pageId });
    expect((await window.stream.next('notify')).data).toMatchObject({
      body: 'Reload to see the fix',
      pageId: page.pageId,
    });
    await waitFor(() => picker.received.length > 0, 5000, 'User.notify on the page');
    expect(picker.received[0]).toEqual({ cmd: 'User.notify', args: { body: 'Reload to see the fix' } });
  });

  it('a question about a page carries its id and url on the card', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const page = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/settings' });
    const agent = await connectAgent(bridge.url);
    const result = call(agent, 'user_confirm', { prompt: 'Is this layout right?', pageId: page.pageId });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ pageId: page.pageId, pageUrl: 'http://localhost:5173/settings' });
    await window.act({ askId: card.askId, action: 'answer', value: true });
    expect((await result).structuredContent).toMatchObject({ status: 'answered', value: true });
    const unknown = await call(agent, 'user_confirm', { prompt: 'And this one?', pageId: 'p9' });
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toMatchObject({ field: 'pageId' });
  });
});
