import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StartupError } from '../../bridge/bridge.js';
import { resolveConfig } from '../../bridge/config.js';
import { startBridgeHost } from '../../electron/bridge-host.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';

/**
 * Low: the desktop app in "attached" mode handed the stored token to whatever answered /bridge/health on the port.
 * It now asks for a proof of the token (an HMAC of a nonce) and attaches only when the proof is right.
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
