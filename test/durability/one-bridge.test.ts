import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, spawnBridge, type ChildBridge } from '../helpers/child-bridge.js';
import { cli } from '../helpers/cli.js';
import { connectAgent } from '../helpers/mcp.js';
import { windowState as readWindowState } from '../helpers/window.js';

/**
 * Finding 2 of issue 37: a second bridge on the same data dir (the desktop app and `npm run bridge`) replayed the
 * journal and wrote into it before it found the port taken — ending the first one's open ask "the bridge
 * restarted" — and on another port both served, handing out the same page ids. Now the data dir is locked before
 * anything in it is read or written: the second bridge says which process holds it and touches nothing.
 */

/** Every file under `dir` with its size and a hash of its bytes: what a second bridge must leave as it is. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[path] = `${statSync(path).size}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

const windowState = (bridge: ChildBridge) => readWindowState(bridge.url, CHILD_TOKEN);

describe('one bridge per data dir (issue 37, finding 2)', () => {
  it('a second bridge, on the same port or another, names the first and touches nothing; its open ask stays open', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'claude' });
    // a sync ask the first bridge holds open: its call waits for the human
    const asking = agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Ship it?' } });
    asking.catch(() => undefined);
    let state = await windowState(first);
    for (let i = 0; !state.asks.length && i < 200; i++) state = await windowState(first);
    const [ask] = state.asks;
    expect(ask).toMatchObject({ prompt: 'Ship it?' });
    const before = snapshot(dataDir);

    for (const port of [String(first.port), '0']) {
      const second = await cli(['--port', port, '--data-dir', dataDir, '--token', CHILD_TOKEN], {});
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`is in use by another aiti-bridge (pid ${first.child.pid}`);
      expect(second.stderr).toContain(`listening on ${first.url}`);
      expect(second.stderr).toContain(`its window: ${first.url}/aiti/ui/`);
      expect(second.stderr).toContain('This one changed nothing');
    }
    // not a byte of the data dir changed, and the first bridge's ask is still open, with no end on record
    expect(snapshot(dataDir)).toEqual(before);
    expect((await windowState(first)).asks.map((a) => a.askId)).toEqual([ask?.askId]);
    const history = await http(`${first.url}/bridge/messages?agentId=claude`, { token: CHILD_TOKEN });
    expect((history.body as MessagesAnswer).messages).toEqual([]);
  });

  it('the lock goes with its process: a bridge started after a SIGKILL of the holder opens the data dir', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await spawnBridge(dataDir);
    expect((await http(`${second.url}/bridge/health`)).status).toBe(200);
  });
});
