import { describe, expect, it } from 'vitest';
import { isConnected } from '../../bridge/pages/registry.js';
import { http, startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

describe('page side: claim, stream, commands, results', () => {
  it('runs a command: claim → SSE → command → result', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, { handler: (cmd, args) => ({ cmd, args }) });
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    const result = await bridge.context.requests.send(target, 'Runtime.evaluate', { expression: 'document.title' });
    expect(result).toEqual({ cmd: 'Runtime.evaluate', args: { expression: 'document.title' } });
  });

  it('a reload with the same instanceId and secret keeps the pageId', async () => {
    const bridge = await startBridge();
    const first = await ScriptedPage.connect(bridge.url);
    first.close();
    const again = await ScriptedPage.connect(bridge.url, { instanceId: first.instanceId, secret: first.secret });
    expect(again.pageId).toBe(first.pageId);
    expect(again.secret).toBe(first.secret);
  });

  it('another instance gets another page, and a stolen instanceId without its secret is refused', async () => {
    const bridge = await startBridge();
    const first = await ScriptedPage.connect(bridge.url);
    const second = await ScriptedPage.connect(bridge.url);
    expect(second.pageId).not.toBe(first.pageId);
    const res = await http(`${bridge.url}/bridge/claim`, {
      body: { instanceId: first.instanceId, secret: 'guess', pageKey: 'x', url: 'http://localhost:3000/' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ field: 'secret' });
  });

  it('forgets a disconnected page after the TTL; the same tab coming back later gets its pageId again, another page a new one', async () => {
    // a TTL long enough for a claim to open its stream on a busy machine (a claimed page without one is forgotten
    // after the TTL too)
    const bridge = await startBridge({ ttlMs: 1500 });
    const page = await ScriptedPage.connect(bridge.url);
    page.close();
    await waitFor(() => bridge.context.pages.get(page.pageId) === undefined, 6000, 'the page forgotten');
    const sessions = await http(`${bridge.url}/bridge/sessions`, { token: bridge.token });
    expect(sessions.body).toEqual([]);
    const other = await ScriptedPage.connect(bridge.url);
    expect(other.pageId).not.toBe(page.pageId);
    const again = await ScriptedPage.connect(bridge.url, { instanceId: page.instanceId, secret: page.secret });
    expect(again.pageId).toBe(page.pageId);
  });

  it('keeps a page that reconnects within the TTL', async () => {
    const bridge = await startBridge({ ttlMs: 1500 });
    const page = await ScriptedPage.connect(bridge.url);
    const witness = await ScriptedPage.connect(bridge.url);
    page.close();
    await waitFor(() => !bridge.context.pages.operable().some((p) => p.pageId === page.pageId), 5000, 'the close seen');
    await page.open();
    // the witness goes after the page did, so the TTL counted from the page's close ran out before the witness's
    witness.close();
    await waitFor(() => bridge.context.pages.get(witness.pageId) === undefined, 6000, 'the witness forgotten');
    // past the TTL counted from the close: the reconnect reset it
    expect(bridge.context.pages.get(page.pageId)).toBeDefined();
  });

  it('refuses a wrong secret on SSE, result and event', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url);
    const q = new URLSearchParams({ role: 'page', instanceId: page.instanceId, secret: 'wrong' });
    const sse = await fetch(`${bridge.url}/bridge/sse?${q}`);
    expect(sse.status).toBe(403);
    const result = await http(`${bridge.url}/bridge/result`, {
      body: { pageId: page.pageId, requestId: 'r1', ok: true, result: 1, secret: 'wrong' },
    });
    expect(result.status).toBe(403);
    const event = await http(`${bridge.url}/bridge/event`, {
      body: { pageId: page.pageId, type: 'page_log', payload: [], secret: 'wrong' },
    });
    expect(event.status).toBe(403);
    // the same answer as for a page that does not exist: no oracle for which page ids are live
    expect(event.body).toMatchObject({
      error: `page "${page.pageId}" is not known here or its secret does not match; claim again with POST /bridge/claim`,
    });
  });

  it("refuses a result for another page's request", async () => {
    const bridge = await startBridge();
    let seen: string | undefined;
    let forgeryRefused = () => {};
    const refused = new Promise<void>((resolve) => (forgeryRefused = resolve));
    const victim = await ScriptedPage.connect(bridge.url, {
      handler: async (_cmd, _args, command) => {
        seen = command.requestId;
        // the right page answers only once the forged answer has been tried
        await refused;
        return 'from the right page';
      },
    });
    const other = await ScriptedPage.connect(bridge.url);
    const target = bridge.context.pages.get(victim.pageId);
    if (!target) throw new Error('page not registered');
    const pending = bridge.context.requests.send(target, 'DOM.getText', {});
    await waitFor(() => seen !== undefined, 2000);
    const forged = await other.post({ requestId: seen ?? '', ok: true, result: 'forged' });
    forgeryRefused();
    expect(forged.status).toBe(403);
    expect(await pending).toBe('from the right page');
  });

  it('fails pending requests at once when the page disconnects', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 20_000 });
    let running = false;
    const page = await ScriptedPage.connect(bridge.url, {
      handler: () => {
        running = true;
        return new Promise(() => undefined);
      },
    });
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    const started = Date.now();
    const pending = bridge.context.requests.send(target, 'Input.click', { target: 'e1' });
    await waitFor(() => running, 5000, 'the page to run the click');
    page.close();
    await expect(pending).rejects.toThrow(`page ${page.pageId} disconnected while running Input.click`);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('a navigation waits for the new document to connect and then completes', async () => {
    const bridge = await startBridge();
    let reloading = false;
    const page = await ScriptedPage.connect(bridge.url, {
      handler: () => {
        reloading = true;
        return new Promise(() => undefined);
      },
    });
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    const navigation = bridge.context.requests.send(target, 'Page.reload', {});
    await waitFor(() => reloading, 5000, 'the page to start the reload');
    page.close();
    await waitFor(() => !isConnected(target), 5000, 'the bridge to see the old document go');
    await page.open();
    await expect(navigation).resolves.toMatchObject({ reloaded: true });
  });

  it('times out a command the page never answers', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 300 });
    const page = await ScriptedPage.connect(bridge.url, { handler: () => new Promise(() => undefined) });
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    await expect(bridge.context.requests.send(target, 'DOM.getText', {})).rejects.toThrow(
      'did not answer DOM.getText within 300 ms',
    );
  });

  it('accepts the legacy no-secret path and marks it, or refuses it with --refuse-legacy', async () => {
    const bridge = await startBridge();
    const legacy = await SseClient.open(
      `${bridge.url}/bridge/sse?role=page&instanceId=old-1&url=http%3A%2F%2Flocalhost%3A5173%2F`,
      { origin: 'http://localhost:5173' },
    );
    const hello = await legacy.next('hello');
    const sessions = await http(`${bridge.url}/bridge/sessions`, { token: bridge.token });
    expect(sessions.body).toEqual([
      expect.objectContaining({ pageId: (hello.data as { pageId: string }).pageId, legacy: true, active: true }),
    ]);
    legacy.close();

    const strict = await startBridge({ refuseLegacy: true });
    const refused = await fetch(`${strict.url}/bridge/sse?role=page&instanceId=old-2`);
    expect(refused.status).toBe(403);
  });

  it('lists iframes registered by the top page as frames of one page and routes commands to them', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, { handler: () => 'top' });
    const reg = await http(`${bridge.url}/bridge/register`, {
      body: { pageId: page.pageId, secret: page.secret, frameIds: ['f1'], urls: { f1: 'http://localhost:4000/frame' } },
    });
    expect(reg.status).toBe(204);
    const frame = await SseClient.open(
      `${bridge.url}/bridge/sse?${new URLSearchParams({ role: 'page', instanceId: page.instanceId, frameId: 'f1', secret: page.secret })}`,
    );
    await frame.next('hello');
    const rows = (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as Array<{
      frameId: string;
      pageId: string;
    }>;
    expect(rows.map((r) => [r.pageId, r.frameId]).sort()).toEqual([
      [page.pageId, 'f1'],
      [page.pageId, 'main'],
    ]);
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    const pending = bridge.context.requests.send(target, 'DOM.getText', {}, { frameId: 'f1' });
    const command = (await frame.next('command')).data as { requestId: string; frameId: string };
    expect(command.frameId).toBe('f1');
    await page.post({ requestId: command.requestId, ok: true, result: 'from the frame' });
    expect(await pending).toBe('from the frame');
    frame.close();
  });

  it('holds a page from a non-loopback origin until the human allows it', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, {
      origin: 'https://staging.example.com',
      url: 'https://staging.example.com/app',
    });
    expect(page.claim.operable).toBe(false);
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    await expect(bridge.context.requests.send(target, 'DOM.getText', {})).rejects.toThrow(
      'held until the human allows its origin',
    );
    const allow = await http(`${bridge.url}/bridge/allow-origin`, {
      token: bridge.token,
      body: { origin: 'https://staging.example.com' },
    });
    expect(allow.status).toBe(200);
    await expect(bridge.context.requests.send(target, 'DOM.getText', {})).resolves.toEqual({ echo: 'DOM.getText' });
  });

  it('keeps console records from page events after the page has gone', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url);
    const at = new Date().toISOString();
    const res = await http(`${bridge.url}/bridge/event`, {
      body: {
        pageId: page.pageId,
        secret: page.secret,
        type: 'page_log',
        payload: [{ level: 'warn', text: 'careful', at }],
      },
    });
    expect(res.status).toBe(204);
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error('page not registered');
    page.close();
    await waitFor(() => !isConnected(target), 5000, 'the bridge to see the page go');
    expect(bridge.context.buffers.peek(page.pageId)?.logs.toArray()).toEqual([{ level: 'warn', text: 'careful', at }]);
  });
});
