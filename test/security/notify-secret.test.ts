import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../bridge/config.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { BIN, cli, eachLine } from '../helpers/cli.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 38, Low 6: `--notify <topic>` and `--notify-token` were on the command line, where every local user reads
 * them in /proc/<pid>/cmdline; with the topic, another user reads the notices and publishes fake ones with a link of
 * their choice. Now they are secrets: refused as flags, taken from the environment (/proc/<pid>/environ is the
 * owner's alone) or from --notify-file.
 */
const notRoot = process.getuid?.() !== 0 ? 'needs root to read as another user' : undefined;
const TOPIC = 'https://ntfy.example/aiti-4f9c1e2b7d5a8c3e9f0b1d2a';
const TOKEN = 'tk_notify_secret_0123456789';

/** What another local user (nobody) reads of a process's command line and environment. */
function asOtherUser(pid: number): Promise<{ cmdline: string; environ: string }> {
  const probe = `
    const fs = require('fs');
    const read = (f) => { try { return fs.readFileSync(f, 'latin1'); } catch (e) { return e.code; } };
    console.log(JSON.stringify({ cmdline: read('/proc/${pid}/cmdline'), environ: read('/proc/${pid}/environ') }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', probe], { uid: 65534, gid: 65534, cwd: '/' });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', () => resolve(JSON.parse(out) as { cmdline: string; environ: string }));
  });
}

describe('the notification topic and token are secrets', () => {
  it('as flags they are refused, naming the environment variable and --notify-file', async () => {
    const topic = await cli(['--port', '0', '--data-dir', tempDir(), '--notify', TOPIC], {});
    expect(topic.code).not.toBe(0);
    expect(topic.stderr).toContain('--notify is a secret');
    expect(topic.stderr).toContain('AITI_NOTIFY');
    expect(topic.stderr).toContain('--notify-file <path>');
    const token = await cli(['--port', '0', '--data-dir', tempDir(), `--notify-token=${TOKEN}`], {});
    expect(token.stderr).toContain('--notify-token is a secret');
  });

  it.skipIf(notRoot)(
    `from --notify-file, another local user finds neither in the process's command line${notRoot ? ` (skipped: ${notRoot})` : ''}`,
    async () => {
      const dir = tempDir();
      const file = join(dir, 'notify');
      writeFileSync(file, `${TOPIC}\n${TOKEN}\n`, { mode: 0o600 });
      const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', dir, '--notify-file', file], {
        env: { PATH: process.env.PATH ?? '', AITI_LOG: 'info' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      onCleanup(() => void child.kill('SIGTERM'));
      const lines: string[] = [];
      eachLine(child.stderr, (line) => lines.push(line));
      await waitFor(() => lines.some((l) => /listening|http:\/\/127\.0\.0\.1:\d+/.test(l)), 15_000, 'the start');
      const seen = await asOtherUser(child.pid ?? 0);
      expect(seen.cmdline).toContain('--notify-file');
      expect(seen.cmdline).not.toContain('ntfy.example');
      expect(seen.cmdline).not.toContain(TOKEN);
      expect(seen.environ).toBe('EACCES');
      expect(readFileSync(file, 'utf8')).toContain(TOPIC);
      // and the bridge notifies that topic with that token
      expect(resolveConfig(['--notify-file', file], {})).toMatchObject({ notify: TOPIC, notifyToken: TOKEN });
    },
  );
});
