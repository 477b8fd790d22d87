import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { limitsOf } from '../helpers/limits.js';
import { waitFor } from '../helpers/wait.js';
import { ensurePageAgentBuilt } from '../page/harness.js';

/** A raw TCP client: sends `request`, then reads nothing at all (its receive buffer fills, then the bridge's). */
function nonReader(
  bridge: Bridge,
  request: string,
  port = bridge.port,
): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write(request);
      resolve({ socket, closed: new Promise((done) => socket.once('close', () => done())) });
    });
    socket.once('error', () => undefined);
    socket.once('connect', () => socket.off('error', reject));
    socket.once('error', reject);
    onCleanup(() => void socket.destroy());
  });
}

const pageScript = (bridge: Bridge) =>
  `GET /aiti/page.js HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\nConnection: keep-alive\r\n\r\n`;

describe('clients that stop reading, and too many connections', () => {
  it('closes responses that make no write progress, counts them, and keeps serving everyone else', async () => {
    ensurePageAgentBuilt();
    const bridge = await startBridge({ limits: { stalledWriteMs: 800 } });
    // each asks for the page script (~200 KB) forty times over (8 MB), so it cannot all sit in the kernel's buffers
    const readers = await Promise.all(
      Array.from({ length: 20 }, () => nonReader(bridge, pageScript(bridge).repeat(40))),
    );
    await waitFor(async () => (await limitsOf(bridge)).slowReaders?.refused === 20, 15_000, 'the 20 cut off');
    // a reader that starts reading now finds its connection closed before the script was all sent
    const late = readers[0];
    let got = 0;
    late?.socket.on('data', (chunk: Buffer) => (got += chunk.length));
    late?.socket.resume();
    await late?.closed;
    expect(got).toBeLessThan(40 * 200_000);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('an SSE stream that falls behind is left to its own unread-bytes rule, not cut off as a stalled response', async () => {
    const bridge = await startBridge({ limits: { stalledWriteMs: 300, sseBufferBytes: 64 * 1024 * 1024 } });
    await connectAgent(bridge.url, { clientName: 'quiet' });
    // a window that reads nothing of its stream while six megabytes of messages are sent to it
    const window = await nonReader(
      bridge,
      `GET /bridge/sse?role=ai&token=${bridge.token} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n\r\n`,
    );
    const text = 'z'.repeat(100_000);
    for (let i = 0; i < 60; i++) {
      const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'quiet', text } });
      expect(res.status).toBe(200);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(window.socket.destroyed).toBe(false);
    expect((await limitsOf(bridge)).slowReaders?.refused).toBe(0);
  });

  it('closes new connections from a client past its cap at once, counts them, and serves it again once it has fewer', async () => {
    const bridge = await startBridge({ limits: { connectionsPerClient: 10 } });
    const held: Socket[] = [];
    for (let i = 0; i < 10; i++) {
      const socket = connect(bridge.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      held.push(socket);
      onCleanup(() => void socket.destroy());
    }
    await waitFor(() => bridge.context.limits.report().connectionsPerClient.current === 10, 5000, 'ten held');
    const refused = await Promise.allSettled(
      Array.from({ length: 5 }, () => fetch(`${bridge.url}/bridge/health`, { signal: AbortSignal.timeout(5000) })),
    );
    expect(refused.every((r) => r.status === 'rejected')).toBe(true);
    expect(bridge.context.limits.report().connectionsPerClient.refused).toBeGreaterThanOrEqual(5);
    for (const socket of held) socket.destroy();
    await waitFor(() => (bridge.context.limits.report().connectionsPerClient.current ?? 0) === 0, 5000, 'closed');
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('watches the remote listener too: a reader stalled there is cut off, and a client counts across both listeners', async () => {
    ensurePageAgentBuilt();
    const bridge = await startBridge({
      remote: { host: '127.0.0.1', port: 0 },
      remotePages: true,
      limits: { stalledWriteMs: 800, connectionsPerClient: 10 },
    });
    const remotePort = bridge.remote?.port ?? 0;
    const stalled = await nonReader(
      bridge,
      `GET /aiti/page.js HTTP/1.1\r\nHost: 127.0.0.1:${remotePort}\r\n\r\n`.repeat(40),
      remotePort,
    );
    await waitFor(() => bridge.context.limits.report().slowReaders.refused === 1, 15_000, 'the remote reader cut off');
    // reading now, it finds its connection closed before the scripts were all sent
    let got = 0;
    stalled.socket.on('data', (chunk: Buffer) => (got += chunk.length));
    stalled.socket.resume();
    await stalled.closed;
    expect(got).toBeLessThan(40 * 200_000);
    // nine held on the local listener, one on the remote: the remote listener refuses the next one
    const held: Socket[] = [];
    for (const port of [...Array.from({ length: 9 }, () => bridge.port), remotePort]) {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      held.push(socket);
      onCleanup(() => void socket.destroy());
    }
    await waitFor(() => bridge.context.limits.report().connectionsPerClient.current === 10, 5000, 'ten held');
    const refused = await fetch(`${bridge.remote?.url}/bridge/health`, { signal: AbortSignal.timeout(5000) }).then(
      () => 'answered',
      () => 'refused',
    );
    expect(refused).toBe('refused');
    for (const socket of held) socket.destroy();
    await waitFor(() => (bridge.context.limits.report().connectionsPerClient.current ?? 0) === 0, 5000, 'closed');
    expect((await http(`${bridge.remote?.url}/bridge/health`)).status).toBe(200);
  });
});
