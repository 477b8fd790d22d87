// What electron-builder really packs for Linux from this build, with a stand-in for the Electron binary (the real
// one cannot be fetched here; the release workflow's smoke job runs the real one): the files, the names, and that
// the packed main process and shim run from what was packed, nothing else.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from '../window/build-window.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = fileURLToPath(new URL('./fake-electron/register.mjs', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface Builder {
  build(options: Record<string, unknown>): Promise<string[]>;
  Platform: { LINUX: { createTarget(name: string): unknown } };
}

let work = '';
let unpacked = '';

beforeAll(async () => {
  ensureElectronBuilt();
  await ensureWindowBuilt();
  if (!existsSync(join(ROOT, 'dist', 'page', 'page.js')))
    throw new Error('dist/page/page.js is missing: npm run build');
  work = mkdtempSync(join(tmpdir(), 'aiti-packed-'));
  // an Electron distribution as electron-builder expects one, with a script for the binary
  const electronDist = join(work, 'electron-dist');
  mkdirSync(electronDist);
  for (const file of ['electron', 'chrome-sandbox', 'LICENSE']) writeFileSync(join(electronDist, file), '#!/bin/sh\n');
  chmodSync(join(electronDist, 'electron'), 0o755);
  const { build, Platform } = require('electron-builder') as Builder;
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget('dir'),
    publish: 'never',
    config: {
      extends: join(ROOT, 'electron-builder.yml'),
      electronDist,
      electronVersion: (
        JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }
      ).version,
      // @electron/fuses needs a real Electron binary to flip
      electronFuses: null,
      directories: { output: join(work, 'release') },
    },
  });
  unpacked = join(work, 'release', 'linux-unpacked');
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the Linux app electron-builder packs', () => {
  it('is the binary aiti-bridge-desktop, with the one-file CLI beside the asar and no update feed', () => {
    expect(existsSync(join(unpacked, 'aiti-bridge-desktop'))).toBe(true);
    expect(existsSync(join(unpacked, 'aiti-bridge'))).toBe(false);
    expect(existsSync(join(unpacked, 'resources', 'app.asar'))).toBe(true);
    expect(existsSync(join(unpacked, 'resources', 'aiti-cli', 'bin', 'aiti-bridge.mjs'))).toBe(true);
    expect(existsSync(join(unpacked, 'resources', 'app-update.yml'))).toBe(false);
  });

  it('its asar holds what the app runs, and the app starts its bridge from it alone', async () => {
    const asar = require('@electron/asar') as {
      listPackage(file: string): string[];
      extractAll(file: string, dest: string): void;
    };
    const listed = asar.listPackage(join(unpacked, 'resources', 'app.asar'));
    for (const file of [
      '/package.json',
      '/dist/electron/main.js',
      '/dist/electron/preload.cjs',
      '/dist/renderer/index.html',
      '/dist/page/page.js',
      '/build/tray/tray.ico',
      '/build/tray/tray@2x.png',
    ]) {
      expect(listed).toContain(file);
    }
    expect(listed.filter((f) => f.endsWith('.map') || f.startsWith('/bridge/') || f.startsWith('/test/'))).toEqual([]);

    // the packed app, extracted, on the fake Electron: it has every module its main process imports
    const app = tempDir('aiti-asar-');
    asar.extractAll(join(unpacked, 'resources', 'app.asar'), app);
    expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'))).toMatchObject({
      main: 'dist/electron/main.js',
    });
    const report = join(tempDir(), 'report.json');
    const child = spawn(
      process.execPath,
      ['--import', FAKE, join(app, 'dist', 'electron', 'main.js'), '--port', '0', '--data-dir', tempDir()],
      {
        cwd: tmpdir(),
        env: { ...process.env, FAKE_ELECTRON_REPORT: report, AITI_SHORTCUT: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    onCleanup(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    const seen = () =>
      existsSync(report)
        ? (JSON.parse(readFileSync(report, 'utf8')) as { window?: { url?: string }; tray?: unknown })
        : {};
    await waitFor(
      () => Boolean(seen().tray && seen().window?.url),
      20_000,
      `the packed app's window; stderr:\n${stderr}`,
    );
    const ui = new URL(seen().window?.url ?? '');
    expect((await http(`${ui.origin}/bridge/health`)).body).toEqual({ ok: true, version: pkg.version });
    expect((await http(`${ui.origin}/aiti/page.js`)).status).toBe(200);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('the shim it ships answers an MCP client with its tools, before any bridge runs', async () => {
    const client = new Client({ name: 'packed-shim', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [join(unpacked, 'resources', 'aiti-cli', 'bin', 'aiti-bridge.mjs'), '--stdio'],
        env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: 'http://127.0.0.1:9', AITI_LOG: 'warn' },
        stderr: 'pipe',
      }),
    );
    onCleanup(() => client.close());
    expect(client.getServerVersion()).toMatchObject({ name: 'aiti-bridge', version: pkg.version });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('page_exec');
  });
});
