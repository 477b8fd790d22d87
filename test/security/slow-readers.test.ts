import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { limitsOf } from '../helpers/limits.js';
import { waitFor } from '../helpers/wait.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { pairDevice } from '../helpers/device.js';
import { ensureWindowBuilt } from '../window/build-window.js';

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

/** A request for the window's script bundle (~500 KB, kept alive), at `port`. */
async function windowScript(bridge: Bridge, port = bridge.port): Promise<string> {
  await ensureWindowBuilt();
  const index = await (await fetch(`${bridge.url}/aiti/ui/`)).text();
  const src = /src="\.\/(assets\/[^"]+\.js)"/.exec(index)?.[1] ?? 'no-script';
  return `GET /aiti/ui/${src} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`;
}

describe('clients that stop reading, and too many connections', () => {
  it('closes responses that make no write progress, counts them, and keeps serving everyone else', async () => {
    const bridge = await startBridge({ limits: { stalledWriteMs: 800 } });
    // each asks for the window's script (~500 KB) sixteen times over (8 MB), more than the kernel's buffers hold
    const request = (await windowScript(bridge)).repeat(16);
    const readers = await Promise.all(Array.from({ length: 20 }, () => nonReader(bridge, request)));
    await waitFor(async () => (await limitsOf(bridge)).slowReaders?.refused === 20, 15_000, 'the 20 cut off');
    // a reader that starts reading now finds its connection closed before the script was all sent
    const late = readers[0];
    let got = 0;
    late?.socket.on('data', (chunk: Buffer) => (got += chunk.length));
    late?.socket.resume();
    await late?.closed;
    expect(got).toBeLessThan(16 * 500_000);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('clients that ask for the page script and never read it hold no connection (issue 37, finding 10)', async () => {
    ensurePageAgentBuilt();
    const bridge = await startBridge();
    const readers = await Promise.all(Array.from({ length: 100 }, () => nonReader(bridge, pageScript(bridge))));
    expect(readers).toHaveLength(100);
    // the script's bytes wait in the kernel, where no rule of the bridge sees them; the connection ends with it
    await waitFor(
      () => (bridge.context.limits.report().connectionsPerClient.current ?? 0) === 0,
      15_000,
      'every page-script connection closed by the bridge',
    );
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('a window stream whose reader stopped is cut off once its bytes wait without progress (issue 37, finding 10)', async () => {
    const bridge = await startBridge({ limits: { stalledWriteMs: 1000, sseBufferBytes: 64 * 1024 * 1024 } });
    await connectAgent(bridge.url, { clientName: 'quiet' });
    // a window that reads nothing of its stream while six megabytes of messages are sent to it: within its unread
    // budget, but making no progress at all
    const window = await nonReader(
      bridge,
      `GET /bridge/sse?role=ai&token=${bridge.token} HTTP/1.1\r\nHost: 127.0.0.1:${bridge.port}\r\n\r\n`,
    );
    const text = 'z'.repeat(100_000);
    for (let i = 0; i < 60 && !window.socket.destroyed; i++)
      await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'quiet', text } });
    await waitFor(async () => (await limitsOf(bridge)).slowReaders?.refused === 1, 15_000, 'the window stream cut off');
    expect(bridge.context.limits.report().sseReaders.current).toBe(0);
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

  it("the remote listener's connections have budgets of their own: idle anonymous ones never starve the desk, local agents or a paired phone", async () => {
    const bridge = await startBridge({
      remote: { host: '127.0.0.1', port: 0 },
      limits: { connectionsPerClient: 40, remoteAnonymousConnections: 8 },
    });
    const remotePort = bridge.remote?.port ?? 0;
    // a tunnel's crowd: every one arrives from 127.0.0.1, says nothing and stays
    const idle: Socket[] = [];
    for (let i = 0; i < 100; i++) {
      const socket = connect(remotePort, '127.0.0.1');
      socket.on('error', () => undefined);
      await new Promise((resolve) => socket.once('connect', resolve));
      idle.push(socket);
      onCleanup(() => void socket.destroy());
    }
    await waitFor(() => bridge.context.limits.report().remoteConnections.refused >= 92, 5000, 'the idle crowd refused');
    for (let i = 0; i < 5; i++) expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    const agent = await connectAgent(bridge.url, { clientName: 'local-agent' });
    expect((await agent.callTool({ name: 'bridge_status', arguments: {} })).isError).toBeFalsy();
    // the phone signs in through the same crowd: the oldest silent connection gives way to it
    const phone = await pairDevice(bridge);
    const whoami = await http(`${bridge.remote?.url}/bridge/whoami`, { token: phone.token });
    expect(whoami.status).toBe(200);
    expect(bridge.context.limits.report().connectionsPerClient.current ?? 0).toBeLessThan(40);
  });
});
