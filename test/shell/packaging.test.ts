import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
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
  toolsets?: { appimage?: string };
  artifactName?: string;
  afterPack?: unknown;
  afterSign?: unknown;
  linux?: { target?: string[]; icon?: string; executableName?: string };
  deb?: { packageName?: string; appArmorProfile?: string };
  rpm?: { packageName?: string };
  mac?: {
    target?: Array<{ target: string; arch: string[] }>;
    icon?: string;
    hardenedRuntime?: boolean;
    entitlements?: string;
    entitlementsInherit?: string;
    notarize?: boolean;
  };
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
function pngSize(bytes: Buffer): [number, number] {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}
const pngFile = (file: string) => pngSize(readFileSync(file));

/** The RGBA bytes of an 8-bit RGBA PNG (what Chromium's screenshots are), unfiltered. */
function pngPixels(file: string): Uint8Array {
  const bytes = readFileSync(file);
  const [width, height] = pngSize(bytes);
  expect([bytes[24], bytes[25]], 'bit depth 8, colour type RGBA').toEqual([8, 6]);
  const chunks: Buffer[] = [];
  for (let at = 8; at < bytes.length; at += 12 + bytes.readUInt32BE(at)) {
    if (bytes.toString('latin1', at + 4, at + 8) === 'IDAT')
      chunks.push(bytes.subarray(at + 8, at + 8 + bytes.readUInt32BE(at)));
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * 4;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] ?? 0;
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x] ?? 0;
      const left = x >= 4 ? (out[y * stride + x - 4] ?? 0) : 0;
      const up = y > 0 ? (out[(y - 1) * stride + x] ?? 0) : 0;
      const corner = x >= 4 && y > 0 ? (out[(y - 1) * stride + x - 4] ?? 0) : 0;
      const paeth = () => {
        const p = left + up - corner;
        const [a, b, c] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        return a <= b && a <= c ? left : b <= c ? up : corner;
      };
      const predictor = [0, left, up, (left + up) >> 1, paeth()][filter] ?? 0;
      out[y * stride + x] = (value + predictor) & 0xff;
    }
  }
  return out;
}

/** The sizes an ICO file holds, each entry checked to be a PNG of the size its directory entry says. */
function icoSizes(file: string): number[] {
  const bytes = readFileSync(file);
  expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2)]).toEqual([0, 1]);
  return Array.from({ length: bytes.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const size = bytes.readUInt8(entry) || 256;
    const png = bytes.subarray(
      bytes.readUInt32LE(entry + 12),
      bytes.readUInt32LE(entry + 12) + bytes.readUInt32LE(entry + 8),
    );
    expect(pngSize(png)).toEqual([size, size]);
    return size;
  });
}

/** A deb maintainer template filled in as electron-builder fills it (`${name}` macros). */
function fillTemplate(file: string, values: Record<string, string>): string {
  return readFileSync(file, 'utf8').replace(/\${([a-zA-Z]+)}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`the template ${file} uses \${${name}}, which electron-builder does not give`);
    return value;
  });
}

describe('packaging', () => {
  it('electron-builder.yml passes electron-builder own schema check', async () => {
    await expect(loadBuilderConfig()).resolves.toBeDefined();
  });

  it('names the installers: AppImage, deb and rpm on Linux, dmg and zip on macOS (both arches), nsis on Windows', async () => {
    const config = await loadBuilderConfig();
    expect(config.linux?.target).toEqual(['AppImage', 'deb', 'rpm']);
    // the zip is what electron-updater installs an update from on macOS
    expect(config.mac?.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.win?.target).toBe('nsis');
    expect(config.directories?.buildResources).toBe('build');
    // release assets and shell commands take the names as they are
    expect(config.artifactName).toMatch(/^[\w.${}-]+$/);
  });

  it('the desktop binary cannot shadow the CLI: the deb links /usr/bin/aiti-bridge-desktop, never aiti-bridge', async () => {
    const config = await loadBuilderConfig();
    expect(config.linux?.executableName).toBe('aiti-bridge-desktop');
    expect(config.deb?.packageName).toBe('aiti-bridge-desktop');
    expect(config.rpm?.packageName).toBe('aiti-bridge-desktop');
    // electron-builder's own after-install script, which links /usr/bin/<executable>
    const afterInstall = fillTemplate(require.resolve('app-builder-lib/templates/linux/after-install.tpl'), {
      executable: 'aiti-bridge-desktop',
      sanitizedProductName: 'AITI Bridge',
    });
    expect(afterInstall).toContain("ln -sf '/opt/AITI Bridge/aiti-bridge-desktop' '/usr/bin/aiti-bridge-desktop'");
    expect(afterInstall).not.toMatch(/\/usr\/bin\/aiti-bridge'/);
  });

  it('the deb ships an AppArmor profile that lets its installed binary use user namespaces (Ubuntu 24.04)', async () => {
    const config = await loadBuilderConfig();
    const { sanitizeFileName } = require('builder-util/out/filename') as { sanitizeFileName(name: string): string };
    const profile = fillTemplate(join(ROOT, config.deb?.appArmorProfile ?? 'missing'), {
      executable: config.linux?.executableName ?? '',
      sanitizedProductName: sanitizeFileName('AITI Bridge'),
    });
    expect(profile).toContain('abi <abi/4.0>,');
    expect(profile).toMatch(
      /^profile aiti-bridge-desktop "\/opt\/AITI Bridge\/aiti-bridge-desktop" flags=\(unconfined\) \{\n {2}userns,$/m,
    );
    // electron-builder's after-install loads it only where AppArmor understands it (not on 22.04)
    const afterInstall = readFileSync(require.resolve('app-builder-lib/templates/linux/after-install.tpl'), 'utf8');
    expect(afterInstall).toContain("APPARMOR_PROFILE_SOURCE='/opt/${sanitizedProductName}/resources/apparmor-profile'");
    expect(afterInstall).toContain('apparmor_parser --skip-kernel-load --debug "$APPARMOR_PROFILE_SOURCE"');
  });

  it("the AppImage's launcher keeps the sandbox, adding --no-sandbox only where user namespaces are refused", async () => {
    const config = await loadBuilderConfig();
    // the static runtime (no libfuse2) and its AppRun; the legacy toolset's desktop entry always passes --no-sandbox
    expect(config.toolsets?.appimage).toBe('1.0.3');
    const { generateAppRunScript } = require('app-builder-lib/out/targets/appimage/appImageUtil') as {
      generateAppRunScript(config: Record<string, string>): string;
    };
    const appDir = tempDir('aiti-appdir-');
    writeFileSync(
      join(appDir, 'AppRun'),
      generateAppRunScript({
        DesktopFileName: 'aiti-bridge-desktop.desktop',
        ExecutableName: config.linux?.executableName ?? '',
        ProductName: 'AITI Bridge',
        ProductFilename: 'aiti-bridge-desktop',
        ResourceName: 'appimagekit-aiti-bridge-desktop',
      }),
    );
    // the app: it writes down the arguments it was started with
    const argsFile = join(appDir, 'args.txt');
    writeFileSync(join(appDir, 'aiti-bridge-desktop'), `#!/bin/sh\necho "$@" > "${argsFile}"\n`);
    chmodSync(join(appDir, 'aiti-bridge-desktop'), 0o755);
    const launch = (path: string) => {
      const run = spawnSync('bash', [join(appDir, 'AppRun'), '--port', '0'], {
        env: { PATH: path, APPDIR: appDir, APPIMAGE: join(appDir, 'AITI.AppImage') },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      return readFileSync(argsFile, 'utf8').trim();
    };
    // here user namespaces work (unshare -Ur true succeeds): the sandbox stays on
    const usable = spawnSync('unshare', ['-Ur', 'true']).status === 0;
    if (usable) expect(launch(process.env.PATH ?? '')).toBe('--port 0');
    // Ubuntu 24.04's AppArmor restriction, as unshare meets it
    const restricted = tempDir('aiti-bin-');
    writeFileSync(join(restricted, 'unshare'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(restricted, 'unshare'), 0o755);
    expect(launch(`${restricted}:${process.env.PATH ?? ''}`)).toBe('--no-sandbox --port 0');
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

  it('macOS: the fuses are flipped before the final signature, under a hardened runtime, notarized from the environment', async () => {
    const config = await loadBuilderConfig();
    // electron-builder flips `electronFuses` after afterPack and just before it signs; a hook flipping them later
    // (afterSign) would break the signature, and an unsigned build needs its ad-hoc signature reset
    expect(config.afterSign).toBeUndefined();
    expect(config.afterPack).toBeUndefined();
    expect(config.electronFuses?.resetAdHocDarwinSignature).toBe(true);
    const packager = readFileSync(require.resolve('app-builder-lib/out/platformPackager.js'), 'utf8');
    const flip = packager.indexOf('await this.doAddElectronFuses(packContext)');
    const sign = packager.indexOf('await this.doSignAfterPack(');
    expect(flip, 'this electron-builder flips the fuses in doPack').toBeGreaterThan(0);
    expect(sign, 'the signature comes after the flip').toBeGreaterThan(flip);

    expect(config.mac).toMatchObject({
      hardenedRuntime: true,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
    });
    // notarization runs when APPLE_API_KEY/_ID/_ISSUER are set: it must not be switched off
    expect(config.mac?.notarize).not.toBe(false);
    const entitlements = readFileSync(join(ROOT, 'build', 'entitlements.mac.plist'), 'utf8');
    expect([...entitlements.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual([
      'com.apple.security.cs.allow-jit',
    ]);
  });

  it('points at icons that exist: PNG for macOS and Linux, ICO with every size for Windows and its tray', async () => {
    const config = await loadBuilderConfig();
    for (const icon of [config.linux?.icon, config.mac?.icon]) {
      expect(pngFile(join(ROOT, 'build', icon ?? 'missing'))).toEqual([512, 512]);
    }
    expect(config.win?.icon).toBe('icon.ico');
    expect(icoSizes(join(ROOT, 'build', 'icon.ico'))).toEqual([16, 24, 32, 48, 64, 128, 256]);
    for (const tray of ['tray.ico', 'tray-ask.ico']) {
      expect(icoSizes(join(ROOT, 'build', 'tray', tray))).toEqual([16, 20, 24, 32, 40, 48, 64]);
    }
    for (const tray of ['tray.png', 'tray-ask.png'])
      expect(pngFile(join(ROOT, 'build', 'tray', tray))).toEqual([16, 16]);
    for (const tray of ['tray@2x.png', 'tray-ask@2x.png'])
      expect(pngFile(join(ROOT, 'build', 'tray', tray))).toEqual([32, 32]);
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

  it('renders every icon from the one source image with the local Chromium', { timeout: 90_000 }, () => {
    const out = tempDir();
    execFileSync(process.execPath, ['scripts/make-icons.js', out], { cwd: ROOT, stdio: 'ignore' });
    expect(pngFile(join(out, 'icon.png'))).toEqual([512, 512]);
    expect(pngFile(join(out, 'tray', 'tray.png'))).toEqual([16, 16]);
    expect(pngFile(join(out, 'tray', 'tray-ask@2x.png'))).toEqual([32, 32]);
    expect(icoSizes(join(out, 'icon.ico'))).toEqual([16, 24, 32, 48, 64, 128, 256]);
    expect(icoSizes(join(out, 'tray', 'tray-ask.ico'))).toEqual([16, 20, 24, 32, 40, 48, 64]);
    // the "-ask" variant differs: it carries the dot for open asks
    expect(readFileSync(join(out, 'tray', 'tray-ask.png')).equals(readFileSync(join(out, 'tray', 'tray.png')))).toBe(
      false,
    );
    // macOS' menu bar: template images, one colour (black) with only alpha to draw with
    for (const file of ['tray/trayTemplate.png', 'tray/tray-askTemplate@2x.png']) {
      const rgba = pngPixels(join(out, file));
      const drawn = [...Array(rgba.length / 4).keys()].filter((i) => (rgba[i * 4 + 3] ?? 0) > 0);
      expect(drawn.length, `${file} draws something`).toBeGreaterThan(0);
      const coloured = drawn.filter((i) => rgba[i * 4] || rgba[i * 4 + 1] || rgba[i * 4 + 2]);
      expect(coloured, `${file}: pixels that are not black`).toEqual([]);
    }
    // the images in build/ are these renders
    for (const file of [
      'icon.png',
      'icon.ico',
      'tray/tray.ico',
      'tray/tray-ask.png',
      'tray/trayTemplate.png',
      'tray/trayTemplate@2x.png',
      'tray/tray-askTemplate.png',
      'tray/tray-askTemplate@2x.png',
    ]) {
      expect(readFileSync(join(out, file)).equals(readFileSync(join(ROOT, 'build', file))), file).toBe(true);
    }
  });

  it('make-icons says what is missing when it has no Chromium', () => {
    const run = spawnSync(process.execPath, ['scripts/make-icons.js', tempDir()], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(
      `make-icons: no Chromium at /nonexistent/chromium; install Debian's "chromium" package or set CHROMIUM_PATH to a Chrome or Chromium binary`,
    );
  });
});
