import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { claimPage } from '../helpers/page-wire.js';

/**
 * Issue 24, Low 7: the data dir, `sessions/` and `allowed-origins.json` were 755/644 under the usual umask 022:
 * other users of the machine could list agent ids and when they talked. Everything the bridge writes is now
 * 0700 (directories) and 0600 (files) whatever the umask.
 */

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The real CLI under a shell's `umask`, as a person starts it from a terminal. */
async function bridgeUnderUmask(umask: string, dataDir: string): Promise<string> {
  const child = spawn(
    'sh',
    ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, BIN, '--port', '0', '--data-dir', dataDir],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, AITI_LOG: 'info' },
    },
  );
  onCleanup(() => void child.kill('SIGKILL'));
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    child.on('exit', (code) => reject(new Error(`the bridge exited with ${code}: ${stderr}`)));
  });
}

/** Every directory and file under `dir` with its permission bits, e.g. `sessions/alice 700`. */
function modes(dir: string): string[] {
  const rows = [`. ${(statSync(dir).mode & 0o777).toString(8)}`];
  for (const path of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort())
    rows.push(`${path} ${(statSync(join(dir, path)).mode & 0o777).toString(8)}`);
  return rows;
}

describe('the data dir is private whatever the umask', () => {
  it.each(['022', '000'])(
    'under umask %s every directory is 700 and every file 600, after agents, pushes, images and an allowed origin',
    async (umask) => {
      const dataDir = tempDir();
      const url = await bridgeUnderUmask(umask, dataDir);
      const appDir = join(dataDir, 'aiti-bridge');
      const token = readFileSync(join(appDir, 'token'), 'utf8').trim();
      const alice = await connectAgent(url, { clientName: 'alice' });
      await callTool(alice, 'aiti_hello', { agentId: 'alice' });
      const pushed = await http(`${url}/bridge/push`, {
        token,
        body: { to: 'alice', text: 'look', images: [{ mimeType: 'image/png', data: PNG }] },
      });
      expect(pushed.status).toBe(200);
      await claimPage(url, { url: 'http://192.168.1.20:3000/' });
      expect(
        (await http(`${url}/bridge/allow-origin`, { token, body: { origin: 'http://192.168.1.20:3000' } })).status,
      ).toBe(200);

      const found = modes(appDir);
      for (const name of [
        'token',
        'agent-token',
        'allowed-origins.json',
        'agent-ids.jsonl',
        'sessions/alice',
        'images',
      ])
        expect(found.map((row) => row.split(' ')[0])).toContain(name);
      const wrong = found.filter((row) => {
        const [path = '', mode] = row.split(' ');
        const isDir = statSync(join(appDir, path)).isDirectory();
        return mode !== (isDir ? '700' : '600');
      });
      expect(wrong).toEqual([]);
    },
  );

  it('a data dir an older bridge left open (755, 644) is closed at start', async () => {
    const dataDir = tempDir();
    const appDir = join(dataDir, 'aiti-bridge');
    mkdirSync(join(appDir, 'sessions'), { recursive: true });
    chmodSync(appDir, 0o755);
    writeFileSync(join(appDir, 'allowed-origins.json'), '[]', { mode: 0o644 });
    // it had its tokens already: nothing needs writing, the directory is closed all the same
    writeFileSync(join(appDir, 'token'), 'an-older-token-0123456789\n', { mode: 0o600 });
    writeFileSync(join(appDir, 'agent-token'), 'an-older-agent-token-0123\n', { mode: 0o600 });
    await bridgeUnderUmask('022', dataDir);
    expect((statSync(appDir).mode & 0o777).toString(8)).toBe('700');
  });
});
