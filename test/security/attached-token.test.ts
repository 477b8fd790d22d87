import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../bridge/bridge.js';
import { resolveConfig } from '../../bridge/config.js';
import { startBridgeHost, tokenForWindow } from '../../electron/bridge-host.js';
import { Channel } from '../../electron/channels.js';
import { setupIpc, type IpcSender } from '../../electron/ipc.js';
import { remoteFeed } from '../../electron/remote-feed.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { squat } from '../helpers/squatter.js';
import { sleep, waitFor } from '../helpers/wait.js';

/**
 * Low: the desktop app in "attached" mode handed the stored token to whatever answered /bridge/health on the port.
 * It now asks for a proof of the token (an HMAC of a nonce) and attaches only when the proof is right.
 * Issue 24, High 2: and it proved the peer only once, at start: its feed retried every 2 s with the token, and a
 * window reloaded from whatever held the port then got the token over IPC. Now it proves before each.
 */

function dataDirWithToken(token: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'aiti-bridge'), { recursive: true });
  writeFileSync(join(dir, 'aiti-bridge', 'token'), `${token}\n`, { mode: 0o600 });
  return dir;
}

describe('the desktop app attaches only to a bridge that holds its token', () => {
  it('a squatter that answers like a bridge never receives the token, and the app does not attach', async () => {
    const seen: string[] = [];
    const squatter = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/bridge/health')) return res.end(JSON.stringify({ ok: true, version: '9.9.9' }));
      if (req.url?.startsWith('/bridge/token-proof')) return res.end(JSON.stringify({ proof: 'made-up' }));
      res.end(JSON.stringify({ agents: [] }));
    });
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
    const port = (squatter.address() as AddressInfo).port;
    const token = 'the-humans-token-0123456789';
    let offered = false;
    const attach = startBridgeHost({
      config: resolveConfig(['--port', String(port), '--data-dir', dataDirWithToken(token)], {}),
      offerAttach: async () => (offered = true),
    });
    await expect(attach).rejects.toThrow(StartupError);
    await expect(attach).rejects.toThrow(`listens on http://127.0.0.1:${port} but does not hold this app's token`);
    expect(offered).toBe(false);
    expect(seen.join('\n')).not.toContain(token);
  });

  it('a real bridge holding another token is refused; the one holding the same token is attached', async () => {
    const other = await startBridge({ token: 'someone-elses-token-000000' });
    await expect(
      startBridgeHost({
        config: resolveConfig(['--port', String(other.port), '--data-dir', dataDirWithToken('mine-0000000000000')], {}),
        offerAttach: async () => true,
      }),
    ).rejects.toThrow("does not hold this app's token");
    const same = await startBridgeHost({
      config: resolveConfig(['--port', String(other.port), '--data-dir', dataDirWithToken(other.token)], {}),
      offerAttach: async () => true,
    });
    expect(same).toMatchObject({ kind: 'attached', url: other.url, token: other.token });
  });
});

describe('once attached, the desktop app proves the bridge again before every token it sends', () => {
  it('the feed stops and says so when a squatter takes the port after the bridge stopped; the squatter gets no token', async () => {
    const bridge = await startBridge();
    bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    const told: string[] = [];
    const feed = remoteFeed(bridge.url, bridge.token, { retryMs: 50, onImpostor: (message) => told.push(message) });
    onCleanup(() => feed.close());
    await waitFor(() => feed.snapshot().asks.length === 1, 5000, 'the feed to be live');

    await bridge.close();
    const squatter = await squat({ port: bridge.port });
    await squatter.waitForRequest('/bridge/');
    expect(squatter.seen()).not.toContain(bridge.token);
    await waitFor(() => told.length === 1, 5000, 'the feed to give up');
    expect(told[0]).toContain(`something else answers on ${bridge.url}`);
    expect(told[0]).toContain('it was sent nothing');
    // it stopped: no more tries, and none of them carried the token
    const tries = squatter.requests().length;
    await sleep(300);
    expect(squatter.requests().length).toBe(tries);
    expect(squatter.requests().map((r) => r.url.split('?')[0])).toEqual(['/bridge/token-proof']);
    expect(squatter.seen()).not.toContain(bridge.token);
  });

  it('a window reloaded while a squatter holds the port asks for the token over IPC and gets an error, not the token', async () => {
    const bridge = await startBridge();
    const host = { url: bridge.url, token: bridge.token };
    const handlers = new Map<string, (event: IpcSender) => unknown>();
    setupIpc({
      ipcMain: { handle: (channel, listener) => handlers.set(channel, listener) },
      windowId: () => 1,
      origin: bridge.url,
      token: () => tokenForWindow(host),
      hostInfo: () => ({ platform: 'linux', shortcut: '', notices: [] }),
    });
    const fromWindow: IpcSender = { sender: { id: 1 }, senderFrame: { url: `${bridge.url}/aiti/ui/`, parent: null } };
    const askToken = () => Promise.resolve(handlers.get(Channel.Token)?.(fromWindow));
    expect(await askToken()).toBe(bridge.token);

    await bridge.close();
    const squatter = await squat({ port: bridge.port });
    await expect(askToken()).rejects.toThrow(`something else answers on ${bridge.url}`);
    // the squatter logs each request from its own process: the answer can be here before its line is
    await squatter.waitForRequest('/bridge/token-proof');
    expect(squatter.requests().map((r) => r.url.split('?')[0])).toEqual(['/bridge/token-proof']);
    expect(squatter.seen()).not.toContain(bridge.token);
    // with nothing on the port at all, the window gets no token either
    await squatter.stop();
    await expect(askToken()).rejects.toThrow(`the bridge at ${bridge.url} does not answer`);
  });
});
