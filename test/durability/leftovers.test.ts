import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { BIN, cli } from '../helpers/cli.js';
import { connectAgent } from '../helpers/mcp.js';
import { zombie } from '../helpers/processes.js';
import { attach, needStrace } from '../helpers/strace.js';

/**
 * Finding 9 of issue 37: leftovers. A SIGKILL mid-operation left `.<config>.aiti-PID-…` files beside client configs,
 * a ~1 MB `page-ids.jsonl.PID.tmp`, images no message refers to; an `agent-token create` killed at its fsync left the
 * name taken by a token nobody saw. The kills are real: strace sends SIGKILL at the system call named.
 */

/** Runs the CLI under strace, killed by SIGKILL at the first call `inject` names (`-P` narrows it to one file). */
function killedAt(args: string[], env: Record<string, string>, inject: string[]): { signal: string | null } {
  const result = spawnSync('strace', ['-f', '-qq', '-o', '/dev/null', ...inject, process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', AITI_LOG: 'warn', ...env },
    encoding: 'utf8',
  });
  return { signal: /\+\+\+ killed by SIGKILL/.test(result.stderr) ? 'SIGKILL' : result.signal };
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]);

describe('what a killed process leaves behind (issue 37, finding 9)', () => {
  it('temporary files of the data dir and images no message refers to are collected at the next start', async (ctx) => {
    needStrace(ctx);
    const dataDir = tempDir();
    const appDir = join(dataDir, 'aiti-bridge');
    const first = await spawnBridge(dataDir);
    await connectAgent(first.url, { clientName: 'claude' });
    const push = (text: string, image = false) =>
      http(`${first.url}/bridge/push`, {
        token: CHILD_TOKEN,
        body: {
          to: 'claude',
          text,
          ...(image ? { images: [{ mimeType: 'image/png', data: PNG.toString('base64') }] } : {}),
        },
      });
    expect((await push('kept, with its image', true)).status).toBe(200);
    // killed at the fsync of the images folder: the image is on disk, the line that would refer to it is not
    const dying = await attach(first.child.pid ?? 0, [
      '-e',
      'trace=fsync',
      '-P',
      join(appDir, 'images'),
      '-e',
      'inject=fsync:signal=KILL',
    ]);
    void push('never acknowledged', true).catch(() => undefined);
    await new Promise((resolve) => first.child.once('exit', resolve));
    await dying.stop();
    // and what older bridges, or one killed mid-replace, left: a page-ids.jsonl.<pid>.tmp, a quick replies temp file
    writeFileSync(join(appDir, 'page-ids.jsonl.999999.tmp'), 'x'.repeat(1_000_000));
    writeFileSync(join(appDir, '.quick-replies.json.aiti-999999-0badf00d.tmp'), '{"replies":[');
    writeFileSync(join(appDir, '.write-check-999999'), 'ok\n');
    // one whose process ended but was never reaped (a container without an init that reaps): its pid still answers
    writeFileSync(join(appDir, `.sessions.json.aiti-${await zombie()}-0badf00d.tmp`), '{');
    expect(readdirSync(join(appDir, 'images'))).toHaveLength(2);

    const second = await spawnBridge(dataDir);
    const left = readdirSync(appDir).filter((name) => /\.tmp$|write-check/.test(name));
    expect(left).toEqual([]);
    const history = await http(`${second.url}/bridge/messages?agentId=claude`, { token: CHILD_TOKEN });
    const kept = (history.body as MessagesAnswer).messages.flatMap((m) => m.images?.map((i) => i.id) ?? []);
    expect(kept).toHaveLength(1);
    // the image its message refers to stays; the one nobody refers to is gone
    expect(readdirSync(join(appDir, 'images'))).toEqual(kept);
    await kill(second.child);
  });

  it('--register-shim killed while it writes a config leaves a temporary file, which the next run collects', (ctx) => {
    needStrace(ctx);
    const home = tempDir('aiti-home-');
    mkdirSync(join(home, '.claude'));
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ mcpServers: {} }, null, 2));
    const killed = killedAt(['--register-shim'], { HOME: home }, [
      '-e',
      'trace=fsync',
      '-e',
      'inject=fsync:signal=KILL:when=1',
    ]);
    expect(killed.signal).toBe('SIGKILL');
    const temps = () => readdirSync(home).filter((name) => /^\.\.claude\.json\.aiti-\d+-[0-9a-f]{8}$/.test(name));
    expect(temps()).toHaveLength(1);
    const again = spawnSync(process.execPath, [BIN, '--register-shim'], {
      env: { PATH: process.env.PATH ?? '', HOME: home, AITI_LOG: 'warn' },
      encoding: 'utf8',
    });
    expect(again.status).toBe(0);
    expect(temps()).toEqual([]);
  });

  it('an agent-token create killed at its fsync leaves a half-made token that holds no name', async (ctx) => {
    needStrace(ctx);
    const dataDir = tempDir();
    const env = { AITI_BRIDGE_DATA_DIR: dataDir };
    // the data dir and the tokens file exist (a bridge ran), so the create's first fsync is its line's
    expect((await cli(['agent-token', 'create', 'first'], env)).code).toBe(0);
    const file = join(dataDir, 'aiti-bridge', 'agent-tokens.jsonl');
    const killed = killedAt(['agent-token', 'create', 'devbox'], env, [
      '-e',
      'trace=fsync',
      '-P',
      file,
      '-e',
      'inject=fsync:signal=KILL:when=1',
    ]);
    expect(killed.signal).toBe('SIGKILL');
    // the line is in the file (written, never shown): listed as half-made, and the name is free
    expect((await cli(['agent-token', 'list'], env)).stdout).toMatch(/^devbox .*HALF-MADE/m);
    const made = await cli(['agent-token', 'create', 'devbox'], env);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^  aiti_agent_\S+$/m);
    expect((await cli(['agent-token', 'list'], env)).stdout).not.toContain('HALF-MADE');
  });
});
