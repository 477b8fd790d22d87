import { describe, expect, it } from 'vitest';
import type { Json } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { sleep } from '../helpers/wait.js';

type Seen = Array<{ cmd: string; args: Json }>;

/** A scripted page that records every command and answers like a tiny page agent. */
async function recordingPage(bridgeUrl: string, seen: Seen, url = 'http://localhost:3000/'): Promise<ScriptedPage> {
  return ScriptedPage.connect(bridgeUrl, {
    url,
    handler: async (cmd, args): Promise<Json> => {
      seen.push({ cmd, args });
      if (cmd === 'Snapshot.take') return { url, title: 'Shop', outline: 'e1 button "Buy"', refs: 1, frames: [] };
      if (cmd === 'UI.scan') return { url, dialogs: [{ title: 'Sign in', fields: [] }], forms: [] };
      if (cmd === 'UI.fill')
        return { scope: 'dialog "Sign in"', filled: [{ field: 'Email', selector: '#email', value: 'a@b.c' }] };
      if (cmd === 'Page.screenshot') return { mimeType: 'image/png', data: 'iVBORw0KGgo=', width: 10, height: 5 };
      return { clicked: true };
    },
  });
}

async function postEvents(page: ScriptedPage, type: string, payload: Json): Promise<void> {
  const res = await fetch(`${page.bridgeUrl}/bridge/event`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: JSON.stringify({ pageId: page.pageId, secret: page.secret, type, payload }),
  });
  expect(res.status).toBe(204);
}

describe('page tools against a scripted page', () => {
  it('page_exec keeps to the configured command timeout when the command has none of its own', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 300 });
    await ScriptedPage.connect(bridge.url, { handler: () => new Promise<Json>(() => undefined) });
    const client = await connectAgent(bridge.url);
    const result = await callTool(client, 'page_exec', { cmd: 'DOM.getText', args: {} });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('did not answer DOM.getText within 300 ms');
  });

  it('a command without pageId sent while the only page reloads waits for it and runs there', async () => {
    const bridge = await startBridge();
    const seen: Seen = [];
    const page = await recordingPage(bridge.url, seen);
    const client = await connectAgent(bridge.url);
    page.close(); // the page unloads …
    const call = callTool(client, 'page_snapshot', {});
    await sleep(300);
    await page.open(); // … and its new document connects again
    const result = await call;
    expect(result.isError, resultText(result)).toBeFalsy();
    expect(seen.map((s) => s.cmd)).toEqual(['Snapshot.take']);
  });

  it('page_exec sends the command with its validated args and returns the page result', async () => {
    const bridge = await startBridge();
    const seen: Seen = [];
    const page = await recordingPage(bridge.url, seen);
    const client = await connectAgent(bridge.url);
    const result = await callTool(client, 'page_exec', { cmd: 'Input.click', args: { target: 'e1' } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ pageId: page.pageId, cmd: 'Input.click', result: { clicked: true } });
    expect(seen).toEqual([{ cmd: 'Input.click', args: { target: 'e1' } }]);
  });

  it('page_exec names the bad field of a command argument and sends nothing', async () => {
    const bridge = await startBridge();
    const seen: Seen = [];
    await recordingPage(bridge.url, seen);
    const client = await connectAgent(bridge.url);
    const result = await callTool(client, 'page_exec', { cmd: 'Input.type', args: { target: 'e1' } });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Input.type args field "text"');
    expect(result.structuredContent).toMatchObject({ field: 'args.text' });
    expect(seen).toEqual([]);
  });

  it('page_exec refuses an unknown command and the internal ones, listing the commands', async () => {
    const bridge = await startBridge();
    await recordingPage(bridge.url, []);
    const client = await connectAgent(bridge.url);
    const unknown = await callTool(client, 'page_exec', { cmd: 'Input.clik', args: {} });
    expect(resultText(unknown)).toContain('unknown page command "Input.clik"');
    expect(resultText(unknown)).toContain('Runtime.evaluate');
    const internal = await callTool(client, 'page_exec', { cmd: 'UI.scan' });
    expect(internal.isError).toBe(true);
    expect(resultText(internal)).toContain('unknown page command "UI.scan"');
  });

  it('page_exec waits for Page.waitFor past the default command timeout when its own timeout allows', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 300 });
    let found = () => {};
    const pastDefault = new Promise<void>((resolve) => (found = resolve));
    let received = () => {};
    const asked = new Promise<void>((resolve) => (received = resolve));
    // the page finds the text only once a plain command, sent after Page.waitFor, ran out of the default 300 ms
    await ScriptedPage.connect(bridge.url, {
      handler: async (cmd): Promise<Json> => {
        if (cmd !== 'Page.waitFor') return new Promise<Json>(() => {});
        received();
        await pastDefault;
        return { found: true };
      },
    });
    const client = await connectAgent(bridge.url);
    const waiting = callTool(client, 'page_exec', {
      cmd: 'Page.waitFor',
      args: { text: 'Saved', timeoutMs: 2000 },
    });
    await asked;
    const plain = await callTool(client, 'page_exec', { cmd: 'DOM.getText', args: {} });
    expect(resultText(plain)).toContain('did not answer DOM.getText within 300 ms');
    found();
    expect((await waiting).structuredContent).toMatchObject({ result: { found: true } });
  });

  it('page_exec returns a screenshot as image content, not as base64 in the text', async () => {
    const bridge = await startBridge();
    await recordingPage(bridge.url, []);
    const client = await connectAgent(bridge.url);
    const shot = await callTool(client, 'page_exec', { cmd: 'Page.screenshot' });
    expect(shot.content).toContainEqual({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
    expect(shot.structuredContent).toMatchObject({
      result: { width: 10, height: 5, image: 'attached as image content' },
    });
    expect(resultText(shot)).not.toContain('iVBORw0KGgo=');
  });

  it('asks for pageId when two pages are connected, listing them, and uses the one given', async () => {
    const bridge = await startBridge();
    const first = await recordingPage(bridge.url, [], 'http://localhost:3000/a');
    const second = await recordingPage(bridge.url, [], 'http://localhost:3000/b');
    const client = await connectAgent(bridge.url);
    const ambiguous = await callTool(client, 'page_snapshot');
    expect(ambiguous.isError).toBe(true);
    expect(resultText(ambiguous)).toContain('2 pages are connected, so pass pageId');
    expect(resultText(ambiguous)).toContain(`${first.pageId} (http://localhost:3000/a)`);
    expect(resultText(ambiguous)).toContain(`${second.pageId} (http://localhost:3000/b)`);
    const chosen = await callTool(client, 'page_snapshot', { pageId: second.pageId });
    expect(chosen.structuredContent).toMatchObject({ pageId: second.pageId, outline: 'e1 button "Buy"' });
    const unknown = await callTool(client, 'page_snapshot', { pageId: 'p99' });
    expect(resultText(unknown)).toContain('pageId "p99" is not connected');
  });

  it('says how to connect a page when none is', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url);
    const result = await callTool(client, 'page_snapshot');
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('no page is connected');
    expect(resultText(result)).toContain('/aiti/page.js');
  });

  it('self_ui scans and form_fill fills through the page', async () => {
    const bridge = await startBridge();
    const seen: Seen = [];
    await recordingPage(bridge.url, seen);
    const client = await connectAgent(bridge.url);
    const scan = await callTool(client, 'self_ui');
    expect(scan.structuredContent).toMatchObject({ dialogs: [{ title: 'Sign in' }] });
    const fill = await callTool(client, 'form_fill', { fields: { Email: 'a@b.c' }, button: 'Sign in' });
    expect(fill.structuredContent).toMatchObject({ filled: [{ field: 'Email', value: 'a@b.c' }] });
    expect(seen).toEqual([
      { cmd: 'UI.scan', args: {} },
      { cmd: 'UI.fill', args: { fields: { Email: 'a@b.c' }, button: 'Sign in' } },
    ]);
  });

  it('page_logs and page_network answer from the bridge after the page has gone, with filters', async () => {
    const bridge = await startBridge();
    const page = await recordingPage(bridge.url, []);
    await postEvents(page, 'page_log', [
      { level: 'log', text: 'booting', at: '2026-01-01T00:00:00.000Z' },
      { level: 'warn', text: 'slow image', at: '2026-01-01T00:00:01.000Z' },
      { level: 'error', text: 'TypeError: x is undefined', at: '2026-01-01T00:00:02.000Z' },
    ]);
    await postEvents(page, 'page_network', [
      {
        method: 'GET',
        url: '/api/cart',
        status: 200,
        ok: true,
        durationMs: 12,
        type: 'fetch',
        at: '2026-01-01T00:00:01.000Z',
      },
      {
        method: 'POST',
        url: '/api/buy',
        status: 500,
        ok: false,
        durationMs: 40,
        type: 'fetch',
        at: '2026-01-01T00:00:03.000Z',
      },
    ]);
    page.close();
    const client = await connectAgent(bridge.url);
    const warnings = await callTool(client, 'page_logs', { level: 'warn' });
    expect(warnings.isError).toBeFalsy();
    expect((warnings.structuredContent as { entries: Array<{ text: string }> }).entries.map((e) => e.text)).toEqual([
      'slow image',
      'TypeError: x is undefined',
    ]);
    const recent = await callTool(client, 'page_logs', {
      pageId: page.pageId,
      since: '2026-01-01T00:00:01.000Z',
      limit: 5,
    });
    expect((recent.structuredContent as { entries: unknown[] }).entries).toHaveLength(1);
    const failed = await callTool(client, 'page_network', { failedOnly: true });
    expect(failed.structuredContent).toMatchObject({ entries: [{ url: '/api/buy', status: 500 }], matched: 1 });
    const badSince = await callTool(client, 'page_logs', { since: 'yesterday' });
    expect(resultText(badSince)).toContain('since "yesterday" is not an ISO time');
  });

  it('bridge_status lists the pages an agent can drive', async () => {
    const bridge = await startBridge();
    const page = await recordingPage(bridge.url, []);
    const client = await connectAgent(bridge.url, { clientName: 'cursor' });
    const status = await callTool(client, 'bridge_status');
    expect(status.structuredContent).toMatchObject({
      pages: [{ pageId: page.pageId, url: 'http://localhost:3000/', frames: ['main'] }],
      agents: { online: [expect.objectContaining({ agentId: 'cursor', transport: 'streamable' })] },
      openAsks: 0,
    });
  });
});

describe('file_stat', () => {
  it('describes an absolute path and refuses a relative one', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url);
    const file = await callTool(client, 'file_stat', { path: bridge.context.appDir + '/token' });
    expect(file.structuredContent).toMatchObject({ exists: true, type: 'file', size: expect.any(Number) });
    const missing = await callTool(client, 'file_stat', { path: '/no/such/file' });
    expect(missing.structuredContent).toEqual({ path: '/no/such/file', exists: false });
    const relative = await callTool(client, 'file_stat', { path: 'src/index.ts' });
    expect(relative.isError).toBe(true);
    expect(resultText(relative)).toContain('path "src/index.ts" is relative');
  });
});
