import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { defaultConfig, resolveConfig } from '../../bridge/config.js';
import { onCleanup, tempDir } from '../helpers/bridge.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

/** Runs the CLI; resolves when it exits, or when `until` matches its stderr (then it stays running). */
export function runCli(args: string[], options: { env?: NodeJS.ProcessEnv; until?: RegExp; timeoutMs?: number } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onCleanup(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`CLI did not finish in time; stderr: ${stderr}`)),
      options.timeoutMs ?? 20_000,
    );
    const check = () => {
      if (options.until?.test(stderr)) {
        clearTimeout(timer);
        resolve({ code: null, stdout, stderr });
      }
    };
    child.stderr.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, done };
}

describe('configuration', () => {
  it('takes a flag over the environment over the default', () => {
    expect(resolveConfig([], {}).port).toBe(8777);
    expect(resolveConfig([], { AITI_BRIDGE_PORT: '9000' }).port).toBe(9000);
    expect(resolveConfig(['--port', '9100'], { AITI_BRIDGE_PORT: '9000' }).port).toBe(9100);
    expect(resolveConfig(['--port=0'], {}).port).toBe(0);
    expect(resolveConfig(['--mcp-auth'], {}).mcpAuth).toBe(true);
    expect(resolveConfig([], { AITI_ALLOWED_ORIGINS: 'http://a:1, http://b:2' }).allowedOrigins).toEqual([
      'http://a:1',
      'http://b:2',
    ]);
    expect(resolveConfig([], { AITI_BRIDGE_TTL: '5000' }).ttlMs).toBe(5000);
  });

  it('names the bad value in one line', () => {
    expect(() => resolveConfig(['--port', 'abc'], {})).toThrow(
      '--port must be a port number from 0 to 65535, got "abc"',
    );
    expect(() => resolveConfig([], { AITI_BRIDGE_TTL: 'soon' })).toThrow(
      'AITI_BRIDGE_TTL must be a positive number of milliseconds, got "soon"',
    );
    expect(() => resolveConfig(['--frobnicate'], {})).toThrow('unknown option "--frobnicate"');
    expect(() => resolveConfig(['--host'], {})).toThrow('--host needs a value');
  });

  it('sets the page command timeout and the ping interval by flag or environment', () => {
    expect(defaultConfig({})).toMatchObject({ commandTimeoutMs: 30_000, pingMs: 15_000 });
    expect(resolveConfig(['--command-timeout', '5000', '--ping=2000'], {})).toMatchObject({
      commandTimeoutMs: 5000,
      pingMs: 2000,
    });
    expect(resolveConfig([], { AITI_COMMAND_TIMEOUT: '7000', AITI_PING: '3000' })).toMatchObject({
      commandTimeoutMs: 7000,
      pingMs: 3000,
    });
    expect(() => resolveConfig(['--ping', '0'], {})).toThrow(
      '--ping must be a positive number of milliseconds, got "0"',
    );
  });
});

describe('the aiti-bridge CLI', () => {
  it('documents every option in --help', async () => {
    const { done } = runCli(['--help']);
    const { code, stdout } = await done;
    expect(code).toBe(0);
    for (const flag of [
      '--port',
      '--host',
      '--data-dir',
      '--token',
      '--mcp-auth',
      '--allowed-origins',
      'AITI_BRIDGE_TTL',
      'AITI_OPEN_CMD',
      '--command-timeout',
      '--ping',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('exits with one clear line for a bad port', async () => {
    const { done } = runCli(['--port', 'abc']);
    const { code, stderr } = await done;
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('aiti-bridge: --port must be a port number from 0 to 65535, got "abc"');
  });

  it('says which port is in use and what to do', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    onCleanup(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const port = (blocker.address() as { port: number }).port;
    const { done } = runCli(['--port', String(port), '--data-dir', tempDir()]);
    const { code, stderr } = await done;
    expect(code).toBe(2);
    expect(stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    expect(stderr).toContain('--port');
  });

  it('says when the data dir cannot be created', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, 'not a folder');
    const { done } = runCli(['--port', '0', '--data-dir', file]);
    const { code, stderr } = await done;
    expect(code).toBe(2);
    expect(stderr).toContain(`cannot create the data dir "${file}/aiti-bridge"`);
  });

  it('prints the bridge URL and the window URL with its token, serves, and closes on SIGTERM', async () => {
    const dir = tempDir();
    const { child, done } = runCli(['--port', '0', '--data-dir', dir], { until: /human window:.*\n/ });
    const { stderr } = await done;
    const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
    expect(url).toBeDefined();
    expect(stderr).toMatch(/human window: +http:\/\/127\.0\.0\.1:\d+\/aiti\/ui\/#token=\S+/);
    const health = await fetch(`${url}/bridge/health`);
    expect(health.status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
