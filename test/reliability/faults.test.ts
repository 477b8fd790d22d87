import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AskUpdate, AskView, InboxResult, PushAnswer } from '../../bridge/protocol/index.js';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt } from '../page/harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** Settles with the call's result, or fails the test when it is still running after `ms` (a hang). */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still had no answer after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

function errorText(result: CallToolResult): string {
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('faults: pages that go away or never answer', () => {
  it('a page closed in the browser mid-command fails the call at once, saying the page went away', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      '/': `<!doctype html><html><head><title>closing</title>${agentTag(bridge)}</head><body><p>waiting</p></body></html>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const agent = await connectAgent(bridge.url);
    await waitFor(() => bridge.context.pages.operable().length === 1, 10_000, 'the page connected');
    // a command that runs for a long time in the page: it waits 20 s for a text that never comes
    const running = callTool(agent, 'page_exec', {
      cmd: 'Page.waitFor',
      args: { text: 'never shown', timeoutMs: 20_000 },
    });
    await waitFor(() => bridge.context.requests.size === 1, 5000, 'the command reached the page');
    await tab.close();
    // far sooner than the command's own 20 s
    const text = errorText(await within(running, 5000, 'page_exec on a closed page'));
    expect(text).toMatch(/page p\S* disconnected while running Page.waitFor \(the page closed, crashed or reloaded\)/);
    expect(bridge.context.requests.size).toBe(0);
  });

  it('a page that never answers: the call ends with a timeout naming the page and the command, and the bridge stays well', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 600 });
    const page = await ScriptedPage.connect(bridge.url, { handler: () => new Promise(() => undefined) });
    const agent = await connectAgent(bridge.url);
    // page_exec gives the page the configured timeout, but never less than its 5 s round-trip margin
    const text = errorText(
      await within(
        callTool(agent, 'page_exec', { cmd: 'DOM.getText', args: {} }),
        10_000,
        'page_exec on a silent page',
      ),
    );
    expect(text).toMatch(new RegExp(`page ${page.pageId} did not answer DOM.getText within \\d+ ms`));
    expect(bridge.context.requests.size).toBe(0);
    // its late answer is refused cleanly, and the bridge keeps serving
    const late = await page.post({ requestId: 'r-late-1', ok: true, result: 'too late' });
    expect(late.status).toBe(404);
    const status = await callTool(agent, 'bridge_status');
    expect(status.isError ?? false).toBe(false);
  });
});

/** An MCP client whose every connection can be cut at once, as when its process dies or the network drops. */
async function droppableAgent(bridgeUrl: string, name: string): Promise<{ client: Client; drop: () => void }> {
  const cut = new AbortController();
  const client = new SdkClient({ name, version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp/mcp', bridgeUrl), {
    fetch: (input, init) =>
      fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal }),
  });
  await client.connect(transport);
  onCleanup(() => client.close().catch(() => undefined));
  return { client, drop: () => cut.abort() };
}

type Status = { agents: { online: Array<{ agentId: string }>; offline: Array<{ agentId: string; unread: number }> } };

describe('faults: a client that drops its stream', () => {
  it('its waiting question is cancelled, it shows offline, and its outbox waits for it to come back within the TTL', async () => {
    const ttlMs = 10_000;
    const bridge = await startBridge({ ttlMs });
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
    await window.next('state');
    const observer = await connectAgent(bridge.url, { clientName: 'observer' });
    const dropper = await droppableAgent(bridge.url, 'dropper');

    const question = dropper.client.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?' } });
    question.catch(() => undefined);
    const ask = (await window.next('ask')).data as AskView;
    expect(ask).toMatchObject({ agentId: 'dropper', prompt: 'Deploy?' });

    dropper.drop();
    const update = (await window.next('ask_update')).data as AskUpdate;
    expect(update).toMatchObject({ askId: ask.askId, status: 'cancelled' });
    expect(bridge.context.asks.views()).toEqual([]);
    const statusOf = async () => (await callTool(observer, 'bridge_status')).structuredContent as Status;
    await waitFor(
      async () => (await statusOf()).agents.offline.some((a) => a.agentId === 'dropper'),
      5000,
      'dropper listed offline',
    );

    const push = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { to: 'dropper', text: 'while you were away' },
    });
    expect(push.status).toBe(200);
    const [sent] = (push.body as PushAnswer).delivered;
    expect(sent).toMatchObject({ agentId: 'dropper', via: 'inbox' });

    await new Promise((r) => setTimeout(r, 1500)); // a while later, well within the TTL
    expect((await statusOf()).agents.offline).toContainEqual(
      expect.objectContaining({ agentId: 'dropper', unread: 1 }),
    );

    const back = await connectAgent(bridge.url, { clientName: 'dropper' });
    const inbox = (await callTool(back, 'aiti_inbox')).structuredContent as InboxResult;
    expect(inbox.messages.map((m) => [m.id, m.text])).toEqual([[sent?.msgId, 'while you were away']]);
    expect((await statusOf()).agents.online.map((a) => a.agentId)).toContain('dropper');
  });
});
