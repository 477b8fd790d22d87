// What electron-builder really packs for Linux from this build, with a stand-in for the Electron binary (the real
// one cannot be fetched here; the release workflow's smoke job runs the real one): the files, the names, the fuses,
// the app's one identity, and that the packed main process and shim run from what was packed, nothing else. The
// AppImage, deb and rpm targets run up to the point where they would call their tools (appimagetool, fpm: not
// here), through electron-builder's own effectiveOptionComputed hook, which hands over the .desktop file each
// writes and where it installs it.
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
import { APP_ID, DESKTOP_FILE, PRODUCT_NAME } from '../../electron/app-id.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FAKE = fileURLToPath(new URL('./fake-electron/register.mjs', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

interface Builder {
  build(options: Record<string, unknown>): Promise<string[]>;
  Platform: { LINUX: { createTarget(names: string[]): unknown } };
}

/** @electron/fuses finds the fuse wire after this string in the Electron binary */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron 45's eight fuses as it ships them ('1' on, '0' off), in @electron/fuses' FuseV1Options order */
const SHIPPED_FUSES = '10110001';

let work = '';
let unpacked = '';
/** what each Linux target would install as its .desktop file: its name there, and its text */
const desktopFiles: Record<string, { installedAs: string; text: string }> = {};

beforeAll(async () => {
  ensureElectronBuilt();
  await ensureWindowBuilt();
  if (!existsSync(join(ROOT, 'dist', 'page', 'page.js')))
    throw new Error('dist/page/page.js is missing: npm run build');
  work = mkdtempSync(join(tmpdir(), 'aiti-packed-'));
  // an Electron distribution as electron-builder expects one, with a script for the binary
  const electronDist = join(work, 'electron-dist');
  mkdirSync(electronDist);
  for (const file of ['chrome-sandbox', 'LICENSE']) writeFileSync(join(electronDist, file), '#!/bin/sh\n');
  // the binary carries the fuse wire as Electron's does: version 1, eight fuses
  writeFileSync(join(electronDist, 'electron'), `#!/bin/sh\n# ${FUSE_SENTINEL}\x01\x08${SHIPPED_FUSES}\n`, 'latin1');
  chmodSync(join(electronDist, 'electron'), 0o755);
  const { build, Platform } = require('electron-builder') as Builder;
  await build({
    projectDir: ROOT,
    targets: Platform.LINUX.createTarget(['dir', 'AppImage', 'deb', 'rpm']),
    publish: 'never',
    config: {
      extends: join(ROOT, 'electron-builder.yml'),
      electronDist,
      electronVersion: (
        JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }
      ).version,
      directories: { output: join(work, 'release') },
    },
    // each target's last step before its tool: skip the tool, keep what it would install
    effectiveOptionComputed: async (computed: unknown) => {
      if (Array.isArray(computed)) {
        const [args, desktopFile] = computed as [string[], string];
        const kind = args[args.indexOf('--package') + 1]?.endsWith('.rpm') ? 'rpm' : 'deb';
        const mapping = args.find((arg) => arg.startsWith(`${desktopFile}=`)) ?? '';
        desktopFiles[kind] = {
          installedAs: mapping.slice(desktopFile.length + 1),
          text: readFileSync(desktopFile, 'utf8'),
        };
      } else {
        const { desktop, desktopFileName } = computed as { desktop: string; desktopFileName: string };
        desktopFiles.AppImage = { installedAs: desktopFileName, text: desktop };
      }
      return true;
    },
  });
  unpacked = join(work, 'release', 'linux-unpacked');
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the Linux app electron-builder packs', () => {
  it('is the binary aiti-bridge-desktop, with the one-file CLI beside the asar and the update feed of GitHub', () => {
    expect(existsSync(join(unpacked, 'aiti-bridge-desktop'))).toBe(true);
    expect(existsSync(join(unpacked, 'aiti-bridge'))).toBe(false);
    expect(existsSync(join(unpacked, 'resources', 'app.asar'))).toBe(true);
    expect(existsSync(join(unpacked, 'resources', 'aiti-cli', 'bin', 'aiti-bridge.mjs'))).toBe(true);
    // what electron-updater reads (electron/updates.ts): the releases of this repository
    expect(readFileSync(join(unpacked, 'resources', 'app-update.yml'), 'utf8')).toMatch(
      /^owner: aiti-ai\nrepo: aiti-bridge\nprovider: github\nreleaseType: release\n/,
    );
  });

  it('has one identity: the packed package.json, every .desktop file and the code name the same app id', () => {
    const asar = require('@electron/asar') as { extractFile(file: string, name: string): Buffer };
    const packed = JSON.parse(
      asar.extractFile(join(unpacked, 'resources', 'app.asar'), 'package.json').toString('utf8'),
    ) as { productName?: string; desktopName?: string };
    // what Electron reads at run time: the app's name (menus, userData) and its Linux desktop id
    expect(packed.productName).toBe(PRODUCT_NAME);
    expect(packed.desktopName).toBe(DESKTOP_FILE);
    expect(Object.keys(desktopFiles).sort()).toEqual(['AppImage', 'deb', 'rpm']);
    expect(desktopFiles.deb?.installedAs).toBe(`/usr/share/applications/${DESKTOP_FILE}`);
    expect(desktopFiles.rpm?.installedAs).toBe(`/usr/share/applications/${DESKTOP_FILE}`);
    expect(desktopFiles.AppImage?.installedAs).toBe(DESKTOP_FILE);
    const ids = new Set([APP_ID, packed.desktopName?.replace(/\.desktop$/, '')]);
    for (const { installedAs, text } of Object.values(desktopFiles)) {
      ids.add(installedAs.replace(/^.*\//, '').replace(/\.desktop$/, ''));
      // the window's WM_CLASS / app_id must match the entry, or the dock shows a stranger
      ids.add(/^StartupWMClass=(.*)$/m.exec(text)?.[1]);
      expect(text).toMatch(new RegExp(`^Name=${PRODUCT_NAME}$`, 'm'));
    }
    // Windows' AppUserModelID: the appId main.ts sets, and electron-builder gives the installer
    const bundle = readFileSync(join(ROOT, 'dist', 'electron', 'main.js'), 'utf8');
    expect(bundle).toContain(`var APP_ID = "${APP_ID}"`);
    expect(bundle).toMatch(/setAppUserModelId\(APP_ID\)/);
    expect(ids).toEqual(new Set([APP_ID]));
  });

  it('flips the fuses as electron-builder.yml says: no run-as-node, no NODE_OPTIONS, checked asar only', async () => {
    const { getCurrentFuseWire } = require('@electron/fuses') as {
      getCurrentFuseWire(file: string): Promise<Record<string, number>>;
    };
    const wire = await getCurrentFuseWire(join(unpacked, 'aiti-bridge-desktop'));
    const on = (index: number) => String.fromCharCode(wire[index] ?? 0);
    // RunAsNode, CookieEncryption, NodeOptions, CliInspect, AsarIntegrity, OnlyLoadAppFromAsar, V8 snapshot, file://
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(on).join('')).toBe('01001100');
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
    // dependencies' own tests, at any depth (electron-builder drops only a top-level test folder)
    expect(listed.filter((f) => /^\/node_modules\/.*\/(tests?|__tests__|specs?)\//.test(f))).toEqual([]);
    expect(listed.some((f) => f.startsWith('/node_modules/zod/'))).toBe(true);

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
