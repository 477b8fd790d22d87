import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBridge, StartupError } from '../../bridge/bridge.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { cli } from '../helpers/cli.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';

/**
 * Issue 24: on a machine with other users, loopback TCP is everyone's: any of them can connect to the bridge, or
 * take its port while it is down. A Unix socket in a directory only this user may enter is not: `--socket <path>`
 * makes the bridge listen there too, and the shim connects with `AITI_BRIDGE_URL=unix:<path>`.
 */

/** A socket path in a directory that does not exist yet (the bridge makes it, 0700). */
function socketPath(): string {
  return join(tempDir(), 'run', 'bridge.sock');
}

const notRoot = process.getuid?.() !== 0 ? 'needs root to run a process as another user' : undefined;

describe('the Unix socket (--socket, AITI_BRIDGE_URL=unix:…)', () => {
  it('the shim and `aiti-bridge call` reach the bridge through it, the agent token proven over it too', async () => {
    const path = socketPath();
    const bridge = await startBridge({ socket: path, mcpAuth: true });
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const agent = await connectAgent('http://127.0.0.1:9', {
      transport: 'stdio',
      clientName: 'over-unix',
      token: bridge.context.agentToken,
      env: { AITI_BRIDGE_URL: `unix:${path}` },
    });
    const status = await callTool(agent, 'bridge_status');
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ you: 'over-unix' });
    const call = await cli(['call', '--mcp-auth', '--data-dir', bridge.context.config.dataDir, 'bridge_status'], {
      AITI_BRIDGE_URL: `unix:${path}`,
    });
    expect(call.stderr).toBe('');
    expect(call.stdout).toContain('you: aiti-cli');
  });

  it('the bridge refuses a socket in a directory other users may enter, and says where to put it', async () => {
    const shared = tempDir();
    chmodSync(shared, 0o777);
    const start = createBridge({ port: 0, dataDir: tempDir(), socket: join(shared, 'bridge.sock') });
    await expect(start).rejects.toThrow(StartupError);
    await expect(start).rejects.toThrow(/can be entered by other users \(mode 777; it must be 700\)/);
  });

  it('the shim refuses a socket in such a directory: another user could stand in for the bridge there', async () => {
    const shared = tempDir();
    chmodSync(shared, 0o1777);
    const res = await cli(['call', 'bridge_status'], { AITI_BRIDGE_URL: `unix:${join(shared, 'bridge.sock')}` });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('can be entered by other users');
    expect(res.stderr).toContain('another user could stand in for the bridge there');
  });

  it('a socket left by a killed bridge is taken over; one a running bridge holds is refused', async () => {
    const path = socketPath();
    mkdirSync(join(path, '..'), { mode: 0o700 });
    // a listener that dies without cleaning up leaves its socket file behind
    const stale = spawn(process.execPath, ['-e', `require('net').createServer().listen(${JSON.stringify(path)})`]);
    await new Promise<void>((resolve) => {
      const poll = () => (statSync(path, { throwIfNoEntry: false }) ? resolve() : setTimeout(poll, 20));
      poll();
    });
    stale.kill('SIGKILL');
    await new Promise((resolve) => stale.once('exit', resolve));
    const bridge = await startBridge({ socket: path });
    await expect(createBridge({ port: 0, dataDir: tempDir(), socket: path })).rejects.toThrow(
      `the socket ${path} is in use`,
    );
    await bridge.close();
    expect(statSync(path, { throwIfNoEntry: false })).toBeUndefined();
  });

  it.skipIf(notRoot)(
    `another user reaches the bridge over loopback TCP but cannot connect to its socket${notRoot ? ` (skipped: ${notRoot})` : ''}`,
    async () => {
      const path = socketPath();
      const bridge = await startBridge({ socket: path });
      const probe = `
        const net = require('net');
        const tcp = new Promise((r) => net.connect(${bridge.port}, '127.0.0.1').on('connect', () => r('connected')).on('error', (e) => r(e.code)));
        const unix = new Promise((r) => net.connect(${JSON.stringify(path)}).on('connect', () => r('connected')).on('error', (e) => r(e.code)));
        Promise.all([tcp, unix]).then(([t, u]) => { console.log(JSON.stringify({ tcp: t, unix: u })); process.exit(0); });`;
      const other = spawn(process.execPath, ['-e', probe], {
        uid: 65534,
        gid: 65534,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      onCleanup(() => void other.kill('SIGKILL'));
      let out = '';
      other.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((resolve) => other.once('exit', resolve));
      expect(JSON.parse(out)).toEqual({ tcp: 'connected', unix: 'EACCES' });
    },
  );

  it('without --socket nothing else listens, and a shim pointed at a missing socket says the bridge is not running', async () => {
    const path = socketPath();
    mkdirSync(join(path, '..'), { mode: 0o700 });
    const agent = await connectAgent('http://127.0.0.1:9', {
      transport: 'stdio',
      env: { AITI_BRIDGE_URL: `unix:${path}` },
    });
    const call = await callTool(agent, 'bridge_status');
    expect(call.isError).toBe(true);
    expect(resultText(call)).toContain(`The AITI bridge is not running at unix:${path}`);
  });
});
