import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { AskView, Json, Message, MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';

/**
 * The page gate's answers an agent reads, beyond yes and no (page-gate.test.ts): the human away, "allow once"
 * not remembered, a plain no without a note, what the card says, "allow for this page" per storage area, a page that
 * claims without a URL.
 */

async function setup(url = 'http://localhost:3000/app') {
  const bridge = await startBridge();
  const window = await windowClient(bridge);
  const ran: string[] = [];
  const page = await ScriptedPage.connect(bridge.url, {
    url,
    // a page that claims without a URL still comes from its own origin
    origin: 'http://localhost:3000',
    handler: (cmd) => {
      ran.push(cmd);
      return cmd === 'Runtime.evaluate' ? 42 : { ok: true };
    },
  });
  const agent = await connectAgent(bridge.url, { clientName: 'gate-agent' });
  const exec = async (cmd: string, args: Record<string, Json>) =>
    (await agent.callTool({ name: 'page_exec', arguments: { cmd, args } }, undefined, {
      timeout: 30_000,
    })) as CallToolResult;
  return { bridge, window, page, ran, exec };
}

const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: string } | undefined)?.error ?? '';

async function away(bridge: Bridge, value: boolean) {
  expect((await http(`${bridge.url}/bridge/presence`, { token: bridge.token, body: { away: value } })).status).toBe(
    200,
  );
}

/** What the window's History loads: the newest messages of every agent, ask records among them. */
async function historyRecords(bridge: Bridge): Promise<Message[]> {
  const res = await http(`${bridge.url}/bridge/messages`, { token: bridge.token });
  expect(res.status).toBe(200);
  return (res.body as MessagesAnswer).messages.filter((m) => m.kind === 'ask');
}

describe('the page gate', () => {
  it('with the human away, a dangerous command does not run, and the agent is told why', async () => {
    const { bridge, ran, exec } = await setup();
    await away(bridge, true);
    const result = await exec('Runtime.evaluate', { expression: 'document.cookie' });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toBe(
      "page_exec: Runtime.evaluate needs the human's confirmation (it would run a script in the page), but they are marked away; it did not run. Carry on without it, or ask again when they are back (user_presence).",
    );
    expect(ran).toEqual([]);
    // harmless commands still run while away
    expect((await exec('DOM.getText', {})).isError ?? false).toBe(false);
    expect(ran).toEqual(['DOM.getText']);
  });

  it('with the human away, the refused command is in History, saying it did not run because they were away', async () => {
    const { bridge, window, page, exec } = await setup();
    await away(bridge, true);
    expect((await exec('Storage.set', { area: 'local', key: 'theme', value: 'dark' })).isError).toBe(true);
    const expected = {
      kind: 'ask',
      from: 'bridge',
      agentId: 'gate-agent',
      payload: expect.objectContaining({
        kind: 'page_command',
        prompt: `gate-agent wants to write local storage "theme" on http://localhost:3000/app`,
        pageId: page.pageId,
        command: { cmd: 'Storage.set', args: { area: 'local', key: 'theme', value: 'dark' } },
        status: 'away',
        decidedBy: 'bridge',
        shown: false,
        text: 'the human is marked away; the command did not run',
      }),
    };
    // an open window adds it to History as it happens; one opened later loads it
    expect((await window.stream.next('message')).data).toMatchObject(expected);
    expect(await historyRecords(bridge)).toEqual([expect.objectContaining(expected)]);
  });

  it('the card names the agent, what the command would do and the page', async () => {
    const { window, page, exec } = await setup();
    const call = exec('Runtime.evaluate', { expression: 'document.title' });
    const card = await window.nextAsk();
    expect(card).toMatchObject({
      pageId: page.pageId,
      prompt: 'gate-agent wants to run a script in the page on http://localhost:3000/app',
    });
    await window.act({ askId: card.askId, action: 'answer', value: false });
    expect((await call).isError).toBe(true);
  });

  it('"allow for this page" on a storage write allows that storage area only', async () => {
    const { window, ran, exec } = await setup();
    const first = exec('Storage.set', { area: 'local', key: 'theme', value: 'dark' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: true, remember: true });
    expect((await first).isError ?? false).toBe(false);
    expect((await exec('Storage.set', { area: 'local', key: 'lang', value: 'en' })).isError ?? false).toBe(false);
    const cookie = exec('Storage.set', { area: 'cookie', key: 'sid', value: 'stolen' });
    const again = await window.nextAsk();
    expect(again.prompt).toContain('write cookie storage "sid"');
    await window.act({ askId: again.askId, action: 'answer', value: false });
    expect((await cookie).isError).toBe(true);
    expect(ran).toEqual(['Storage.set', 'Storage.set']);
  });

  it('a page that claimed without a URL: the card names its page id, and every navigation asks', async () => {
    const { window, page, ran, exec } = await setup('');
    const script = exec('Runtime.evaluate', { expression: '1' });
    const card = await window.nextAsk();
    expect(card.prompt).toBe(`gate-agent wants to run a script in the page on ${page.pageId}`);
    await window.act({ askId: card.askId, action: 'answer', value: false });
    await script;
    // with no URL of its own, no target can be shown to be on the page's origin: even a path asks
    for (const url of ['/settings', 'https://elsewhere.example/']) {
      const navigation = exec('Page.navigate', { url });
      const asked: AskView = await window.nextAsk();
      expect(asked, url).toMatchObject({ command: { cmd: 'Page.navigate', args: { url } } });
      expect(asked.prompt, url).toContain(`to ${url} on ${page.pageId}`);
      await window.act({ askId: asked.askId, action: 'answer', value: false });
      expect((await navigation).isError, url).toBe(true);
    }
    expect(ran).toEqual([]);
  });

  it('"allow once" is not remembered: the same command asks again', async () => {
    const { window, ran, exec } = await setup();
    const first = exec('Runtime.evaluate', { expression: '1' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: true });
    expect((await first).isError ?? false).toBe(false);
    const second = exec('Runtime.evaluate', { expression: '2' });
    const again = await window.nextAsk();
    expect(again.command?.cmd).toBe('Runtime.evaluate');
    await window.act({ askId: again.askId, action: 'answer', value: false });
    expect((await second).isError).toBe(true);
    expect(ran).toEqual(['Runtime.evaluate']);
  });

  it('a plain no, without a note, is reported in those words', async () => {
    const { page, window, exec } = await setup();
    const call = exec('Storage.set', { area: 'local', key: 'k', value: 'v' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: false });
    expect(errorOf(await call)).toBe(
      `page_exec: the human did not allow Storage.set on page ${page.pageId}; it did not run. Do not retry it; find another way or ask them what they prefer.`,
    );
  });
});
