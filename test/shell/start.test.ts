import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { describeProcesses, runningInGroup } from '../helpers/processes.js';
import { waitFor } from '../helpers/wait.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = fileURLToPath(new URL('./fake-electron/register.mjs', import.meta.url));

/** `npm start -- <args>` in its own process group (npm, node and whatever they spawn die together). */
function npmStart(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn('npm', ['start', '--silent', '--', '--no-build', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = { stderr: '', stdout: '' };
  child.stderr.on('data', (chunk: Buffer) => (output.stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (output.stdout += chunk.toString()));
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  };
  onCleanup(stop);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, stop, exited };
}

/** Whether any process of the group npmStart made still runs (a zombie left to a parent that never reaps has ended). */
function groupAlive(pid: number | undefined): boolean {
  return pid !== undefined && runningInGroup(pid).length > 0;
}

/** The environment of this machine without a display, or with one named. */
function envWith(changes: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AITI_LOG: 'info' };
  delete env.DISPLAY;
  delete env.WAYLAND_DISPLAY;
  delete env.ELECTRON_OVERRIDE_DIST_PATH;
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Waits for the headless bridge to print its window URL, then checks it serves with that token. */
async function headlessBridgeFrom(output: { stderr: string }) {
  await waitFor(() => /human window:\s+\S+/.test(output.stderr), 20_000, `the window URL on stderr:\n${output.stderr}`);
  const windowUrl = /human window:\s+(\S+)/.exec(output.stderr)?.[1] ?? '';
  const url = new URL(windowUrl);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  expect(url.pathname).toBe('/aiti/ui/');
  expect((await http(`${url.origin}/bridge/health`)).body).toMatchObject({ ok: true });
  expect((await http(`${url.origin}/bridge/sessions`, { token })).status).toBe(200);
  return { origin: url.origin, token };
}

const firstLine = (text: string) => text.split('\n')[0];

const electronInstalled = existsSync(join(ROOT, 'node_modules', 'electron', 'path.txt'));
const ELECTRON_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }
).version;

/** A local HTTP server standing in for Electron's download mirror; it records the paths asked for. */
async function localMirror(answer: (res: ServerResponse) => void): Promise<{ url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests };
}

describe('npm start where Electron cannot start', () => {
  beforeAll(() => {
    // the launch path needs the app built; only the electron step, which writes dist/electron alone
    ensureElectronBuilt();
  });

  it('without a display, says so in one line and runs the headless bridge with the flags given', async () => {
    const dataDir = tempDir();
    const { output } = npmStart(['--port', '0', '--data-dir', dataDir], envWith({}));
    const { token } = await headlessBridgeFrom(output);
    expect(firstLine(output.stderr)).toBe(
      'aiti-bridge: the desktop app cannot start here: no display (DISPLAY and WAYLAND_DISPLAY are unset); running the headless bridge instead',
    );
    expect(readFileSync(join(dataDir, 'aiti-bridge', 'token'), 'utf8').trim()).toBe(token);
    expect(output.stdout).toBe('');
  });

  it.skipIf(electronInstalled)(
    'with a display and no Electron binary, fetches it with Electron installer, and falls back in one line when that fails',
    async () => {
      // a mirror that serves a zip whose checksum cannot match: Electron's installer refuses it
      const mirror = await localMirror((res) =>
        res.writeHead(200, { 'content-type': 'application/zip' }).end('no zip'),
      );
      const cache = tempDir();
      const { output } = npmStart(
        ['--port', '0', '--data-dir', tempDir()],
        envWith({ DISPLAY: ':99', ELECTRON_MIRROR: mirror.url, electron_config_cache: cache }),
      );
      await headlessBridgeFrom(output);
      const lines = output.stderr.split('\n');
      expect(lines[0]).toBe(
        `aiti-bridge: fetching the Electron ${ELECTRON_VERSION} binary for linux-${process.arch} from ${mirror.url} (about 100 MB, once; up to 120 s)…`,
      );
      expect(lines[1]).toMatch(
        /^aiti-bridge: the desktop app cannot start here: fetching the Electron binary failed \(Generated checksum for "electron-v[\d.]+-linux-\w+\.zip" did not match expected checksum\); running the headless bridge instead$/,
      );
      expect(mirror.requests).toEqual([
        `/v${ELECTRON_VERSION}/electron-v${ELECTRON_VERSION}-linux-${process.arch}.zip`,
      ]);
    },
  );

  it.skipIf(electronInstalled)('gives up fetching Electron after its time limit, in one line', async () => {
    // a mirror that never answers
    const mirror = await localMirror(() => undefined);
    const { output } = npmStart(
      ['--port', '0', '--data-dir', tempDir()],
      envWith({
        DISPLAY: ':99',
        ELECTRON_MIRROR: mirror.url,
        electron_config_cache: tempDir(),
        AITI_ELECTRON_FETCH_TIMEOUT_MS: '3000',
      }),
    );
    await headlessBridgeFrom(output);
    expect(output.stderr.split('\n')[1]).toBe(
      'aiti-bridge: the desktop app cannot start here: fetching the Electron binary took longer than 3 s; running the headless bridge instead',
    );
    expect(mirror.requests).toHaveLength(1);
  });

  it('when Electron dies at start, says how and falls back to the headless bridge', async () => {
    const fake = tempDir();
    writeFileSync(join(fake, 'electron'), '#!/bin/sh\necho "cannot open display" >&2\nexit 3\n');
    chmodSync(join(fake, 'electron'), 0o755);
    const { output } = npmStart(
      ['--port', '0', '--data-dir', tempDir()],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake }),
    );
    await headlessBridgeFrom(output);
    expect(output.stderr).toContain(
      'aiti-bridge: the desktop app cannot start here: Electron exited at start (code 3); running the headless bridge instead',
    );
  });
});

describe('npm start where Electron can start', () => {
  it('launches the built main process with the bridge flags, and no headless bridge', async () => {
    ensureElectronBuilt();
    const fake = tempDir();
    const argsFile = join(fake, 'args.txt');
    writeFileSync(join(fake, 'electron'), `#!/bin/sh\necho "$@" > "${argsFile}"\nexec sleep 30\n`);
    chmodSync(join(fake, 'electron'), 0o755);
    const { output, stop, child } = npmStart(
      ['--port', '0'],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake }),
    );
    await waitFor(() => existsSync(argsFile) && readFileSync(argsFile, 'utf8').length > 0, 20_000, 'Electron launched');
    expect(readFileSync(argsFile, 'utf8').trim()).toBe(`${join(ROOT, 'dist', 'electron', 'main.js')} --port 0`);
    // stopped (SIGTERM to the group, as a terminal's Ctrl+C or a service manager does): everything ends, and no
    // headless bridge starts behind it though Electron ended early
    stop();
    await waitFor(() => !groupAlive(child.pid), 20_000, 'npm start and all it started to end').catch((error: Error) => {
      throw new Error(`${error.message}; still running: ${describeProcesses(runningInGroup(child.pid ?? 0))}`);
    });
    expect(output.stderr).not.toContain('headless');
  });

  it('when a stop reaches Electron before npm start, it ends with it and starts no headless bridge', async () => {
    // a SIGTERM to the whole group (Ctrl+C, a service manager) may end Electron before npm start's own handler runs:
    // Electron then ended by a signal in its first seconds, which is a stop, not a failed start
    ensureElectronBuilt();
    const fake = tempDir();
    writeFileSync(join(fake, 'electron'), '#!/bin/sh\nkill -TERM $$\n');
    chmodSync(join(fake, 'electron'), 0o755);
    const { output, exited } = npmStart(
      ['--port', '0', '--data-dir', tempDir()],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake }),
    );
    let ended = false;
    void exited.then(() => (ended = true));
    await waitFor(() => ended, 20_000, 'npm start to end').catch((error: Error) => {
      throw new Error(`${error.message}; it said:\n${output.stderr}`);
    });
    expect(output.stderr).not.toContain('headless');
  });
});

describe('npm start after the app itself decided to stop', () => {
  beforeAll(() => ensureElectronBuilt());

  it('when the human chose Quit in the "another bridge is running" dialog, no headless bridge starts', async () => {
    const other = await startBridge();
    // the built main process on the fake Electron, launched by npm start as it would launch Electron
    const fake = tempDir();
    writeFileSync(join(fake, 'electron'), `#!/bin/sh\nexec "${process.execPath}" --import "${FAKE}" "$@"\n`);
    chmodSync(join(fake, 'electron'), 0o755);
    const { output, exited } = npmStart(
      ['--port', String(other.port), '--data-dir', other.context.config.dataDir],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake }),
    );
    expect(await exited).toBe(0);
    expect(output.stderr).not.toContain('headless');
    expect(output.stderr).toContain('the human chose Quit instead of opening the other bridge');
    expect((await http(`${other.url}/bridge/health`)).body).toMatchObject({ ok: true });
  });

  it('when the app showed its own error (exit 2), says nothing more and exits 2', async () => {
    const fake = tempDir();
    writeFileSync(join(fake, 'electron'), '#!/bin/sh\necho "aiti:desktop --port must be a port number" >&2\nexit 2\n');
    chmodSync(join(fake, 'electron'), 0o755);
    const { output, exited } = npmStart(
      ['--port', 'eighty'],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake }),
    );
    expect(await exited).toBe(2);
    expect(output.stderr).not.toContain('headless');
  });
});

describe('npm start where the kernel refuses the sandbox its user namespaces (Ubuntu 24.04)', () => {
  it('starts Electron with --no-sandbox and says why and how to keep the sandbox', async () => {
    ensureElectronBuilt();
    const fake = tempDir();
    const argsFile = join(fake, 'args.txt');
    writeFileSync(join(fake, 'electron'), `#!/bin/sh\necho "$@" > "${argsFile}"\nexec sleep 30\n`);
    chmodSync(join(fake, 'electron'), 0o755);
    // what AppArmor's restriction looks like from a shell: creating a user namespace fails
    const bin = tempDir();
    writeFileSync(
      join(bin, 'unshare'),
      '#!/bin/sh\necho "unshare: write failed /proc/self/uid_map: Operation not permitted" >&2\nexit 1\n',
    );
    chmodSync(join(bin, 'unshare'), 0o755);
    const { output } = npmStart(
      ['--port', '0'],
      envWith({ DISPLAY: ':99', ELECTRON_OVERRIDE_DIST_PATH: fake, PATH: `${bin}:${process.env.PATH ?? ''}` }),
    );
    await waitFor(() => existsSync(argsFile) && readFileSync(argsFile, 'utf8').length > 0, 20_000, 'Electron launched');
    expect(readFileSync(argsFile, 'utf8').trim()).toBe(
      `${join(ROOT, 'dist', 'electron', 'main.js')} --no-sandbox --port 0`,
    );
    const helper = join(fake, 'chrome-sandbox');
    expect(output.stderr).toContain(
      `aiti-bridge: this system refuses the user namespaces Electron's sandbox needs (Ubuntu 23.10+ restricts them) and ${helper} is not setuid root: starting Electron with --no-sandbox. To keep the sandbox: sudo chown root:root '${helper}' && sudo chmod 4755 '${helper}'`,
    );
  });
});
