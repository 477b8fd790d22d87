import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { BIN, eachLine } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';
import { ensurePageAgentBuilt } from '../page/harness.js';

/** Starts the real CLI with `args`; resolves with its stderr lines once it printed its remote address. */
async function startCli(args: string[]): Promise<string[]> {
  const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', tempDir(), ...args], {
    env: { PATH: process.env.PATH ?? '', AITI_LOG: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onCleanup(() => void child.kill('SIGTERM'));
  const lines: string[] = [];
  eachLine(child.stderr, (line) => lines.push(line));
  await waitFor(() => lines.some((l) => l.includes('  remote:')), 15_000, 'the start lines');
  return lines;
}

describe('remote listener options', () => {
  it('on plain HTTP off loopback warns once that the network can read tokens, and says to use SSH or Tailscale', async () => {
    const lines = await startCli(['--remote', '0.0.0.0:0']);
    const warnings = lines.filter((l) => l.includes('speaks plain HTTP'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/anyone on the network can read the device and agent tokens/);
    expect(warnings[0]).toMatch(/--tls-cert.*SSH.*Tailscale Serve/);
  });

  it('on loopback (behind a tunnel) it does not warn, and prints where devices and agents reach it', async () => {
    const lines = await startCli(['--remote', '0']);
    expect(lines.join('\n')).not.toContain('plain HTTP');
    expect(lines.find((l) => l.includes('  remote:'))).toMatch(/remote: {8}http:\/\/127\.0\.0\.1:\d+ /);
  });

  it('keeps pages on the local listener unless --remote-pages', async () => {
    ensurePageAgentBuilt();
    const closed = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
    expect((await http(`${closed.remote?.url}/aiti/page.js`)).status).toBe(401);
    const open = await startBridge({ remote: { host: '127.0.0.1', port: 0 }, remotePages: true });
    expect((await http(`${open.remote?.url}/aiti/page.js`)).status).toBe(200);
    const claim = await http(`${open.remote?.url}/bridge/claim`, {
      headers: { origin: 'http://localhost:3000' },
      body: { instanceId: 'far-tab', pageKey: 'k', url: 'http://localhost:3000/' },
    });
    expect(claim.status).toBe(200);
  });

  it('--tls-cert without --tls-key stops the bridge with one line naming both', async () => {
    await expect(
      startBridge({ remote: { host: '127.0.0.1', port: 0 }, tlsCert: '/nonexistent/cert.pem' }),
    ).rejects.toThrow('--tls-cert and --tls-key go together');
    await expect(
      startBridge({
        remote: { host: '127.0.0.1', port: 0 },
        tlsCert: '/nonexistent/c.pem',
        tlsKey: '/nonexistent/k.pem',
      }),
    ).rejects.toThrow('cannot read --tls-cert "/nonexistent/c.pem"');
  });
});
