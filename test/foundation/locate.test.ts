import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateBridge, runningFile } from '../../bridge/locate.js';
import { startBridge, tempDir } from '../helpers/bridge.js';
import { cli } from '../helpers/cli.js';

/** Issue 41, finding 1: one rule finds the bridge — flag, AITI_BRIDGE_URL, the running bridge's record, 8777. */
describe('where the bridge is', () => {
  it('a running bridge keeps its address in its data dir (0600) and takes it away when it closes', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir, remote: { host: '127.0.0.1', port: 0 } });
    const file = runningFile(dataDir);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      pid: process.pid,
      url: bridge.url,
      remote: { url: bridge.remote?.url, port: bridge.remote?.port },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(locateBridge({ env: {}, dataDir })).toMatchObject({ url: bridge.url });
    await bridge.close();
    expect(existsSync(file)).toBe(false);
  });

  it('flag first, then AITI_BRIDGE_URL, then the record, then 8777; a record whose process is gone is ignored', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir });
    const env = { AITI_BRIDGE_URL: 'http://127.0.0.1:9001/' };
    expect(locateBridge({ env, dataDir, flag: { url: 'http://127.0.0.1:9002', name: '--port' } })).toEqual({
      url: 'http://127.0.0.1:9002',
      from: '--port',
    });
    expect(locateBridge({ env, dataDir })).toEqual({ url: 'http://127.0.0.1:9001', from: 'AITI_BRIDGE_URL' });
    expect(locateBridge({ env: { AITI_BRIDGE_DATA_DIR: dataDir } }).url).toBe(bridge.url);

    // what a bridge killed with SIGKILL leaves: its process is gone
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    const stale = tempDir();
    mkdirSync(join(stale, 'aiti-bridge'));
    writeFileSync(runningFile(stale), JSON.stringify({ pid: dead, url: 'http://127.0.0.1:1' }));
    expect(locateBridge({ env: {}, dataDir: stale })).toEqual({
      url: 'http://127.0.0.1:8777',
      from: `the default: no running bridge recorded in ${runningFile(stale)}`,
    });
  });

  it('`aiti-bridge call` finds a bridge on another port by its record, and says where an address came from', async () => {
    const dataDir = tempDir();
    await startBridge({ dataDir });
    const found = await cli(['call', 'bridge_status', '--data-dir', dataDir], {});
    expect(found.stderr).toBe('');
    expect(found.code).toBe(0);
    expect(found.stdout).toContain('0 page(s) to drive');

    const away = await cli(['call', 'bridge_status'], {
      AITI_BRIDGE_URL: 'http://127.0.0.1:9',
      XDG_CONFIG_HOME: dataDir,
    });
    expect(away.code).toBe(3);
    expect(away.stderr).toContain('cannot reach the bridge at http://127.0.0.1:9 (');
    expect(away.stderr).toContain('the address came from AITI_BRIDGE_URL)');
  });
});
