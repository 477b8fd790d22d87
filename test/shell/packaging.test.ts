import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(ROOT, 'package.json'));

interface BuilderConfig {
  directories?: { buildResources?: string; output?: string };
  extraMetadata?: { main?: string };
  files?: Array<{ filter: string[] }>;
  extraResources?: Array<{ from: string; to: string }>;
  electronFuses?: Record<string, boolean>;
  linux?: { target?: string[]; icon?: string };
  mac?: { target?: string; icon?: string };
  win?: { target?: string; icon?: string };
}

/** electron-builder's own loader and schema check, without packing anything (that needs the Electron zips). */
async function loadBuilderConfig(): Promise<BuilderConfig> {
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
    getConfig(dir: string, path: string | null, extra: null): Promise<BuilderConfig>;
    validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util/out/DebugLogger') as { DebugLogger: new (on: boolean) => unknown };
  const config = await getConfig(ROOT, null, null);
  await validateConfiguration(config, new DebugLogger(false));
  return config;
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

describe('packaging', () => {
  it('electron-builder.yml passes electron-builder own schema check', async () => {
    await expect(loadBuilderConfig()).resolves.toBeDefined();
  });

  it('names the installers: AppImage and deb on Linux, dmg on macOS, nsis on Windows', async () => {
    const config = await loadBuilderConfig();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toBe('dmg');
    expect(config.win?.target).toBe('nsis');
    expect(config.directories?.buildResources).toBe('build');
  });

  it('locks the Electron fuses: no run-as-node, no NODE_OPTIONS, no inspector, app only from a checked asar', async () => {
    expect((await loadBuilderConfig()).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('points at resources that exist: icons in build/, and the built main process and preload', async () => {
    const config = await loadBuilderConfig();
    for (const icon of [config.linux?.icon, config.mac?.icon, config.win?.icon]) {
      expect(pngSize(join(ROOT, 'build', icon ?? 'missing'))).toEqual([512, 512]);
    }
    for (const tray of ['tray.png', 'tray-ask.png'])
      expect(pngSize(join(ROOT, 'build', 'tray', tray))).toEqual([16, 16]);
    for (const tray of ['tray@2x.png', 'tray-ask@2x.png'])
      expect(pngSize(join(ROOT, 'build', 'tray', tray))).toEqual([32, 32]);

    ensureElectronBuilt();
    expect(config.extraMetadata?.main).toBe('dist/electron/main.js');
    expect(existsSync(join(ROOT, 'dist', 'electron', 'main.js'))).toBe(true);
    expect(existsSync(join(ROOT, 'dist', 'electron', 'preload.cjs'))).toBe(true);
    expect(config.extraResources).toEqual([{ from: 'dist/cli', to: 'aiti-cli' }]);
    expect(existsSync(join(ROOT, 'dist', 'cli', 'bin', 'aiti-bridge.mjs'))).toBe(true);
    // the app ships its main process, the window and the page agent the bridge serves, and the tray icons
    expect(config.files?.[0]?.filter).toEqual(
      expect.arrayContaining(['dist/electron/**', 'dist/renderer/**', 'dist/page/**', 'build/tray/**']),
    );
  });

  it('the main bundle imports only Node built-ins, electron and production dependencies (what the app ships)', () => {
    ensureElectronBuilt();
    const bundle = readFileSync(join(ROOT, 'dist', 'electron', 'main.js'), 'utf8');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = [...bundle.matchAll(/^import .* from "([^"]+)";$/gm), ...bundle.matchAll(/import\("([^"]+)"\)/g)]
      .map((m) => m[1] ?? '')
      .filter((name) => !name.startsWith('node:') && name !== 'electron');
    const packageOf = (name: string) =>
      name
        .split('/')
        .slice(0, name.startsWith('@') ? 2 : 1)
        .join('/');
    expect(imported.length).toBeGreaterThan(0);
    for (const name of imported) expect(Object.keys(pkg.dependencies), name).toContain(packageOf(name));
  });

  it('renders every icon from the one source image with the local Chromium', () => {
    const out = tempDir();
    execFileSync(process.execPath, ['scripts/make-icons.js', out], { cwd: ROOT, stdio: 'ignore' });
    expect(pngSize(join(out, 'icon.png'))).toEqual([512, 512]);
    expect(pngSize(join(out, 'tray', 'tray.png'))).toEqual([16, 16]);
    expect(pngSize(join(out, 'tray', 'tray-ask@2x.png'))).toEqual([32, 32]);
    // the "-ask" variant differs: it carries the dot for open asks
    expect(readFileSync(join(out, 'tray', 'tray-ask.png')).equals(readFileSync(join(out, 'tray', 'tray.png')))).toBe(
      false,
    );
  });
});
