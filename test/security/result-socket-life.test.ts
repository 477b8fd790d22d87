import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { openPageStream } from '../helpers/page-wire.js';
import { DEV, command, devPage, openSocket, socketUrl, upgrade, type TestPage } from '../helpers/result-socket.js';
import { waitFor } from '../helpers/wait.js';

/**
 * How long a result socket lives and what it says when it ends, as its page sees it (the close code and reason)
 * and as the agent sees it (whose answer counts). The attacks on the upgrade are in result-socket.test.ts.
 */

const post = (bridge: Bridge, page: TestPage, body: Record<string, unknown>) =>
  http(`${bridge.url}/bridge/result`, {
    headers: { 'content-type': 'text/plain', origin: DEV },
    body: { pageId: page.pageId, secret: page.secret, ...body },
  });

describe('a result socket ends with its frame', () => {
  it('the command stream closing closes its socket, saying so; the other frame’s socket stays open', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    await http(`${bridge.url}/bridge/register`, {
      headers: { 'content-type': 'text/plain', origin: DEV },
      body: { pageId: page.pageId, secret: page.secret, frameIds: ['f1'] },
    });
    const frameStream = await openPageStream(bridge.url, {
      instanceId: page.instanceId,
      secret: page.secret,
      frameId: 'f1',
      origin: DEV,
    });
    const main = await openSocket(bridge, page);
    const frame = await openSocket(bridge, page, { frameId: 'f1' });
    let frameClosed = false;
    void frame.closed.then(() => (frameClosed = true));

    page.stream.close();
    expect(await main.closed).toEqual([1000, 'the stream closed']);
    expect(frameClosed).toBe(false);
    frameStream.close();
    expect(await frame.closed).toEqual([1000, 'the stream closed']);
  });

  it('a newer socket of the same frame replaces the older; each page keeps its own', async () => {
    const bridge = await startBridge();
    const a = await devPage(bridge, `${DEV}/a`);
    const b = await devPage(bridge, 'http://localhost:3001/b');
    const aFirst = await openSocket(bridge, a);
    const bOwn = await openSocket(bridge, b, { origin: 'http://localhost:3001' });
    let bClosed = false;
    void bOwn.closed.then(() => (bClosed = true));
    const aSecond = await openSocket(bridge, a);
    expect(await aFirst.closed).toEqual([1000, 'replaced by a newer socket of the same frame']);

    // the newer socket is the one that counts, also once the older one has gone
    const pending = await command(bridge, a);
    aSecond.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'on the newer socket' }));
    expect(await pending.answer).toBe('on the newer socket');
    expect(bClosed).toBe(false);

    // a stopping bridge says so on every socket it holds, the replacing one included
    await bridge.close();
    expect(await aSecond.closed).toEqual([1001, 'the bridge is shutting down']);
    expect(await bOwn.closed).toEqual([1001, 'the bridge is shutting down']);
  });

  it('what a page sends after the bridge closed its socket is not taken: the answer it posts counts', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const pending = await command(bridge, page);
    const socket = await openSocket(bridge, page);
    // a binary message closes the socket; the answer right behind it arrives while it is closing
    socket.send(Buffer.from([1, 2, 3]));
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'after the close' }));
    expect(await socket.closed).toEqual([1003, 'send results as text messages']);
    expect((await post(bridge, page, { requestId: pending.requestId, ok: true, result: 'posted' })).status).toBe(204);
    expect(await pending.answer).toBe('posted');
  });

  it('a command stream that reconnects keeps its frame’s socket: a command sent on the new stream is answered on it', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const socket = await openSocket(bridge, page);
    // the page's EventSource reconnects (a network blip): the bridge closes the old stream for the new one
    const stream = await openPageStream(bridge.url, { instanceId: page.instanceId, secret: page.secret, origin: DEV });
    const target = bridge.context.pages.get(page.pageId);
    if (!target) throw new Error(`no page ${page.pageId}`);
    const answer = bridge.context.requests.send(target, 'DOM.getText', {});
    const { requestId } = (await stream.next('command')).data as { requestId: string };
    socket.send(JSON.stringify({ requestId, ok: true, result: 'on the same socket' }));
    const closedEarly = socket.closed.then((closed) =>
      Promise.reject(new Error(`the socket closed: ${closed.join(' ')}`)),
    );
    expect(await Promise.race([answer, closedEarly])).toBe('on the same socket');
    closedEarly.catch(() => undefined);
    stream.close();
    expect(await socket.closed).toEqual([1000, 'the stream closed']);
  });

  it('an answer on the socket is counted as one: bridge_status shows how results arrived', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const pending = await command(bridge, page);
    const socket = await openSocket(bridge, page);
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'fast' }));
    expect(await pending.answer).toBe('fast');
    const agent = await connectAgent(bridge.url);
    expect((await callTool(agent, 'bridge_status')).structuredContent).toMatchObject({
      pageResults: { socket: 1, post: 0 },
    });
    socket.close();
  });
});

describe('the result socket answers as an HTTP route does', () => {
  it('is served under /aiti too, without compression (each message is one small result)', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const opened = await upgrade(
      socketUrl(bridge, { pageId: page.pageId, secret: page.secret }, '/aiti/bridge/result-socket'),
      {
        // what a browser offers
        'Sec-WebSocket-Extensions': 'permessage-deflate; client_max_window_bits',
      },
    );
    expect(opened.status).toBe(101);
    expect(opened.extensions).toBeUndefined();
    const socket = await openSocket(bridge, page, { path: '/aiti/bridge/result-socket' });
    const pending = await command(bridge, page);
    socket.send(JSON.stringify({ requestId: pending.requestId, ok: true, result: 'via /aiti' }));
    expect(await pending.answer).toBe('via /aiti');
    socket.close();
  });

  it('a refusal carries its reason phrase and names what was wrong', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    expect(await upgrade(`${bridge.url}/bridge/other-socket`)).toMatchObject({
      status: 404,
      statusMessage: 'Not Found',
      body: JSON.stringify({ error: 'no route GET /bridge/other-socket' }),
    });
    expect(await upgrade(socketUrl(bridge, { pageId: page.pageId, secret: 'guess' }))).toMatchObject({
      status: 403,
      statusMessage: 'Forbidden',
      body: expect.stringContaining(`page \\"${page.pageId}\\" is not known here or its secret does not match`),
    });
    // like an HTTP route's answer, it names the field to fix
    expect(JSON.parse((await upgrade(socketUrl(bridge, { pageId: page.pageId, secret: 'guess' }))).body)).toMatchObject(
      {
        field: 'secret',
      },
    );
  });

  it('a frame the page registered but whose stream is not open has no socket', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    await http(`${bridge.url}/bridge/register`, {
      headers: { 'content-type': 'text/plain', origin: DEV },
      body: { pageId: page.pageId, secret: page.secret, frameIds: ['f2'] },
    });
    expect(await upgrade(socketUrl(bridge, { pageId: page.pageId, secret: page.secret, frameId: 'f2' }))).toMatchObject(
      {
        status: 404,
        body: JSON.stringify({
          error: `frame "f2" of page ${page.pageId} has no open command stream`,
          field: 'frameId',
        }),
      },
    );
  });

  it('a refusal that is not about the request rate is answered at once, not held in the tarpit', async () => {
    const bridge = await startBridge({ limits: { tarpitMs: 60_000 } });
    const page = await devPage(bridge);
    expect(await upgrade(socketUrl(bridge, { pageId: page.pageId, secret: 'guess' }))).toMatchObject({ status: 403 });
    expect(bridge.context.limits.report().tarpit?.current ?? 0).toBe(0);
  });

  it('an upgrade without a Host header (HTTP/1.0) is refused for its Host, as a page route would be', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const raw = connect(bridge.port, '127.0.0.1');
    let answer = '';
    raw.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise((done) => raw.once('close', done));
    raw.write(
      `GET /bridge/result-socket?pageId=${page.pageId}&secret=${page.secret} HTTP/1.0\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
        `Sec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\nOrigin: ${DEV}\r\n\r\n`,
    );
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(answer).toContain('{"error":"Host \\"\\" is not allowed;');
  });

  it('a client that resets its connection while its refusal is held leaves the bridge serving', async () => {
    const bridge = await startBridge({
      limits: { pageRequestBurst: 1, pageRequestsPerSecond: 0.01, tarpitMs: 60_000 },
    });
    const page = await devPage(bridge); // the stream open took the only request of the burst
    const raw = connect(bridge.port, '127.0.0.1');
    await new Promise((connected) => raw.once('connect', connected));
    raw.write(
      `GET /bridge/result-socket?pageId=${page.pageId}&secret=${page.secret} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
        `Sec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\nOrigin: ${DEV}\r\n\r\n`,
    );
    await waitFor(() => bridge.context.limits.report().tarpit?.current === 1, 5000, 'the refusal held in the tarpit');
    raw.resetAndDestroy();
    await waitFor(() => raw.destroyed, 5000, 'the reset sent');
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });
});

describe('messages a socket refuses, and how it says so', () => {
  it('a message that is no JSON object (null, a number) closes it as a policy breach, naming that', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    for (const message of ['null', '5', '"text"']) {
      const socket = await openSocket(bridge, page);
      socket.send(message);
      expect(await socket.closed, message).toEqual([1008, 'a result message must be a JSON object']);
    }
  });

  it('a too deep message is counted among the refusals bridge_status reports', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const socket = await openSocket(bridge, page);
    socket.send('{"a":' + '['.repeat(200) + ']'.repeat(200) + '}');
    await socket.closed;
    expect(bridge.context.limits.report().jsonDepth).toMatchObject({ refused: 1 });
  });

  it('text in invalid UTF-8 closes the socket (1007) and the bridge carries on', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    const socket = await openSocket(bridge, page);
    socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    const [code] = await socket.closed;
    expect(code).toBe(1007);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('a client that breaks the protocol and ignores the close is cut off, not kept for the close handshake', async () => {
    const bridge = await startBridge();
    const page = await devPage(bridge);
    // a program speaking the WebSocket wire by hand, which never answers a close frame and keeps its side open
    const raw = connect({ port: bridge.port, host: '127.0.0.1', allowHalfOpen: true });
    await new Promise((connected) => raw.once('connect', connected));
    let received = Buffer.alloc(0);
    raw.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
    const ended = new Promise((done) => raw.once('end', done));
    raw.on('error', () => undefined);
    raw.write(
      `GET /bridge/result-socket?pageId=${page.pageId}&secret=${page.secret} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n` +
        'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
        `Sec-WebSocket-Key: ${Buffer.alloc(16, 1).toString('base64')}\r\nOrigin: ${DEV}\r\n\r\n`,
    );
    await waitFor(() => received.includes('\r\n\r\n'), 5000, 'the upgrade answered');
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 101 /);
    // a text frame (FIN, opcode 1), masked with zeros as a client must, whose payload is not UTF-8
    raw.write(Buffer.from([0x81, 0x84, 0, 0, 0, 0, 0x7b, 0xff, 0xfe, 0x7d]));
    await ended;
    // the close frame the bridge sent says why: 1007
    const close = received.subarray(received.indexOf('\r\n\r\n') + 4);
    expect([close[0], close.readUInt16BE(2)]).toEqual([0x88, 1007]);
    // it did not wait for this client's close frame (ws would, for 30 s): what the client sends now is reset
    const knock = setInterval(() => raw.write(Buffer.from([0x81, 0x80, 0, 0, 0, 0])), 50);
    await waitFor(() => raw.destroyed, 10_000, 'the connection reset by the bridge');
    clearInterval(knock);
  });

  it('a close reason is at most 123 bytes (RFC 6455): a longer one is cut and ends with …', async () => {
    const bridge = await startBridge({ limits: { pageRequestBurst: 3, pageRequestsPerSecond: 0.01, tarpitMs: 0 } });
    const page = await devPage(bridge);
    const socket = await openSocket(bridge, page);
    for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ requestId: `r${i}`, ok: true }));
    const [code, reason] = await socket.closed;
    expect(code).toBe(1008);
    expect(reason).toMatch(/^origin http:\/\/localhost:3000 sent more than 3 /);
    expect(Buffer.byteLength(reason)).toBe(123);
    expect(reason.endsWith('…')).toBe(true);
  });

  it('a reason repeating the Origin a program sent is whole at 123 bytes, and is never cut inside a character', async () => {
    // a local program holding a page's secret may send any Origin header (latin-1 too), and the refusal names it
    const bridge = await startBridge({ limits: { pageRequestBurst: 1, pageRequestsPerSecond: 1, tarpitMs: 0 } });
    const page = await devPage(bridge);
    const probe = 'http://127.1/';
    // the refusal's whole words, as POST /bridge/result answers them once the probe origin's budget is spent
    let whole = '';
    while (!whole) {
      const res = await http(`${bridge.url}/bridge/result`, {
        headers: { 'content-type': 'text/plain', origin: probe },
        body: { pageId: page.pageId, secret: page.secret, requestId: 'r0', ok: true },
      });
      if (res.status === 429) whole = (res.body as { error: string }).error;
    }
    expect(whole).toContain(probe);
    const refusalFor = (origin: string) => whole.replace(probe, origin);
    /** The close code and reason of a socket from `origin` past its budget (the upgrade took its one request). */
    const closeFor = async (origin: string) => {
      const socket = await openSocket(bridge, page, { origin });
      for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ requestId: `r${i}`, ok: true }));
      return socket.closed;
    };

    const exact = probe + 'x'.repeat(123 - Buffer.byteLength(whole));
    expect(Buffer.byteLength(refusalFor(exact))).toBe(123);
    expect(await closeFor(exact)).toEqual([1008, refusalFor(exact)]);

    // each é is two bytes: one of the two origins puts a character across the cut
    for (const origin of [`${probe}${'é'.repeat(60)}`, `${probe}x${'é'.repeat(60)}`]) {
      const [code, reason] = await closeFor(origin);
      expect(code).toBe(1008);
      expect(Buffer.byteLength(reason)).toBeLessThanOrEqual(123);
      expect(reason).toMatch(/é…$/);
      expect(refusalFor(origin).startsWith(reason.slice(0, -1))).toBe(true);
    }
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });
});
