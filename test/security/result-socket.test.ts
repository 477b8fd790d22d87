import { describe, expect, it } from 'vitest';
import { startBridge, http } from '../helpers/bridge.js';
import { DEV, command, devPage, openSocket, socketUrl, upgrade } from '../helpers/result-socket.js';
import { waitFor } from '../helpers/wait.js';
import { launchBrowserWithEvilSite, serveEvil } from './evil-site.js';

/**
 * The result socket (bridge/pages/result-socket-routes.ts) is a way into the page zone that Koa's routers do not
 * see: each test is an attack on it over a real connection, by a program that sends what it likes or by a
 * website in a real browser.
 */

describe('the result socket refuses before it opens', () => {
  it('without the secret, with a wrong one, from a foreign Host, or for a frame with no stream', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const url = (query: Record<string, string>) => socketUrl(bridge, query);

    expect(await upgrade(url({ pageId: page.pageId }))).toMatchObject({
      status: 400,
      body: expect.stringMatching(/secret/),
    });
    expect(await upgrade(url({ pageId: page.pageId, secret: 'guess' }))).toMatchObject({ status: 403 });
    expect(await upgrade(url({ pageId: 'p999', secret: page.secret }))).toMatchObject({ status: 403 });
    // DNS rebinding: a website's name pointed at 127.0.0.1 reaches the port, not the page zone
    expect(await upgrade(url({ pageId: page.pageId, secret: page.secret }), { Host: 'evil.test' })).toMatchObject({
      status: 403,
      body: expect.stringMatching(/evil\.test.+is not allowed/),
    });
    expect(await upgrade(url({ pageId: page.pageId, secret: page.secret, frameId: 'f9' }))).toMatchObject({
      status: 404,
      body: expect.stringMatching(/no open command stream/),
    });
    expect(await upgrade(`${bridge.url}/bridge/other-socket`)).toMatchObject({ status: 404 });
    // and the real page's own socket opens
    expect(await upgrade(url({ pageId: page.pageId, secret: page.secret }))).toMatchObject({ status: 101 });
    page.stream.close();
  });

  it("a website's page, held for the human's approval, gets no socket", async () => {
    const bridge = await startBridge();
    const held = await devPage(bridge, 'http://evil.test:8080/');
    expect(bridge.context.pages.isOperableOrigin('http://evil.test:8080')).toBe(false);
    const answer = await upgrade(socketUrl(bridge, { pageId: held.pageId, secret: held.secret }), {
      Origin: 'http://evil.test:8080',
    });
    expect(answer).toMatchObject({
      status: 403,
      body: expect.stringMatching(/held until the human allows its origin/),
    });
    held.stream.close();
  });

  it('an origin past its page-request budget is refused with 429 and Retry-After', async () => {
    const bridge = await startBridge({ limits: { pageRequestBurst: 2, pageRequestsPerSecond: 0.01, tarpitMs: 0 } });
    const page = await devPage(bridge); // the stream open takes one
    const query = { pageId: page.pageId, secret: page.secret };
    expect(await upgrade(socketUrl(bridge, query))).toMatchObject({ status: 101 });
    expect(await upgrade(socketUrl(bridge, query))).toMatchObject({
      status: 429,
      retryAfter: expect.stringMatching(/^[1-9]\d*$/),
    });
    page.stream.close();
  });

  it('a refused upgrade waits in the tarpit, as a refused page request does', async () => {
    const bridge = await startBridge({
      limits: { pageRequestBurst: 2, pageRequestsPerSecond: 0.01, tarpitMs: 60_000 },
    });
    const page = await devPage(bridge);
    const query = { pageId: page.pageId, secret: page.secret };
    expect(await upgrade(socketUrl(bridge, query))).toMatchObject({ status: 101 });
    let answered = false;
    const refused = upgrade(socketUrl(bridge, query)).finally(() => (answered = true));
    await waitFor(() => bridge.context.limits.report().tarpit?.current === 1, 5000, 'the refusal held in the tarpit');
    expect(answered).toBe(false);
    page.stream.close();
    // a closing bridge answers what it holds
    await bridge.close();
    expect(await refused).toMatchObject({ status: 429 });
  });

  it('a website in a real browser cannot open a socket for a page it knows by id only', async () => {
    const bridge = await startBridge();
    const victim = await devPage(bridge);
    const pending = await command(bridge, victim);
    const evil = await serveEvil({
      '/': `<!doctype html><title>evil</title><script>
        const socket = new WebSocket(${JSON.stringify(socketUrl(bridge, { pageId: victim.pageId, secret: 'guess' }))});
        socket.onopen = () => { document.title = 'opened'; socket.send(JSON.stringify({ requestId: ${JSON.stringify(pending.requestId)}, ok: true, result: 'forged' })); };
        socket.onclose = () => { if (document.title !== 'opened') document.title = 'refused'; };
      </script>`,
    });
    const browser = await launchBrowserWithEvilSite();
    const tab = await browser.newPage();
    await tab.goto(`${evil.evilUrl}/`);
    await tab.waitForFunction(() => document.title !== 'evil');
    expect(await tab.title()).toBe('refused');
    // the victim's command still waits for the victim's answer, which is the one the agent gets
    const res = await http(`${bridge.url}/bridge/result`, {
      headers: { 'content-type': 'text/plain', origin: DEV },
      body: { pageId: victim.pageId, secret: victim.secret, requestId: pending.requestId, ok: true, result: 'real' },
    });
    expect(res.status).toBe(204);
    expect(await pending.answer).toBe('real');
    victim.stream.close();
  });
});

/** Two pages of two dev servers, a command waiting for page B's answer, and page A's open result socket. */
async function socketOfAWhileBWaits() {
  const bridge = await startBridge();
  const a = await devPage(bridge, `${DEV}/a`);
  const b = await devPage(bridge, 'http://localhost:3001/b');
  const pending = await command(bridge, b);
  const socket = await openSocket(bridge, a);
  return { bridge, a, b, pending, socket };
}

describe('an open socket speaks for its own page only', () => {
  it("page A's socket cannot answer page B's request: the socket closes, B's answer is the one taken", async () => {
    const { bridge, a, b, pending, socket } = await socketOfAWhileBWaits();
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'forged' }));
    expect(await socket.closed).toEqual([1008, expect.stringMatching(/was not sent to page/)]);
    // B answers on its own socket
    const own = await openSocket(bridge, b);
    own.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'from b' }));
    expect(await pending.answer).toBe('from b');
    own.close();
    a.stream.close();
    b.stream.close();
  });

  it('a message names no other page: a pageId or secret in it is ignored, the socket decides', async () => {
    const { a, b, pending, socket } = await socketOfAWhileBWaits();
    socket.send(
      JSON.stringify({ pageId: b.pageId, secret: b.secret, requestId: pending.requestId, ok: true, result: 'x' }),
    );
    expect(await socket.closed).toEqual([1008, expect.stringMatching(/was not sent to page/)]);
    a.stream.close();
    b.stream.close();
  });

  it('binary, malformed, too deep and too many messages close the socket with the reason', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const closedBy = async (message: string | Buffer) => {
      const socket = await openSocket(bridge, page);
      socket.send(message);
      return socket.closed;
    };
    expect(await closedBy(Buffer.from([1, 2, 3]))).toEqual([1003, 'send results as text messages']);
    expect(await closedBy('{"requestId": 5}')).toEqual([1007, expect.stringMatching(/requestId|ok/)]);
    expect(await closedBy('{"requestId": "r1", ok: true}')).toEqual([1007, expect.stringMatching(/JSON/)]);
    expect(await closedBy('[1]')).toEqual([1008, 'a result message must be a JSON object']);
    // larger results go by POST: a socket message over 1 MiB ends the socket (1009, too big)
    expect(await closedBy('"' + 'x'.repeat(1024 * 1024 + 1) + '"')).toEqual([1009, '']);
    expect(await closedBy('{"a":' + '['.repeat(200) + ']'.repeat(200) + '}')).toEqual([
      1008,
      expect.stringMatching(/nested deeper than/),
    ]);
    page.stream.close();

    const limited = await startBridge({ limits: { pageRequestBurst: 5, pageRequestsPerSecond: 0.01, tarpitMs: 0 } });
    const flooder = await devPage(limited);
    const socket = await openSocket(limited, flooder);
    for (let i = 0; i < 10; i++) socket.send(JSON.stringify({ requestId: `r${i}`, ok: true }));
    expect(await socket.closed).toEqual([1008, expect.stringMatching(/rate|per second|limit/i)]);
    flooder.stream.close();
  });

  it('a late answer to a timed-out request is dropped and the socket stays open', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const socket = await openSocket(bridge, page);
    let closed = false;
    void socket.closed.then(() => (closed = true));
    socket.send(JSON.stringify({ requestId: 'finished-long-ago', ok: true, result: 1 }));
    const pending = await command(bridge, page);
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'on time' }));
    expect(await pending.answer).toBe('on time');
    expect(closed).toBe(false);
    socket.close();
    page.stream.close();
  });

  it('the page repeating a result it sent (as it does when it unloads) is a no-op; an unknown one is still 404', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const pending = await command(bridge, page);
    const socket = await openSocket(bridge, page);
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'first' }));
    expect(await pending.answer).toBe('first');
    const post = (requestId: string, result: string) =>
      http(`${bridge.url}/bridge/result`, {
        headers: { 'content-type': 'text/plain', origin: DEV },
        body: { pageId: page.pageId, secret: page.secret, requestId, ok: true, result },
      });
    expect((await post(pending.requestId, 'again')).status).toBe(204);
    expect((await post('never-sent', 'x')).status).toBe(404);
    // another page cannot pass off a repeat either
    const other = await devPage(bridge, 'http://localhost:3001/');
    const res = await http(`${bridge.url}/bridge/result`, {
      headers: { 'content-type': 'text/plain', origin: 'http://localhost:3001' },
      body: { pageId: other.pageId, secret: other.secret, requestId: pending.requestId, ok: true, result: 'x' },
    });
    expect(res.status).toBe(404);
    socket.close();
    page.stream.close();
    other.stream.close();
  });
});
