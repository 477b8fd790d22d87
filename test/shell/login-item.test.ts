import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginItem, type LoginItemDeps } from '../../electron/login-item.js';
import { tempDir } from '../helpers/bridge.js';

const EXE = 'C:\\Program Files\\AITI Bridge\\AITI Bridge.exe';
const ELECTRON = 'C:\\src\\aiti\\node_modules\\electron\\dist\\electron.exe';
const MAIN = 'C:\\src\\aiti\\dist\\electron\\main.js';

/**
 * Windows' login items as Electron keeps them: one Run value per app holding a command line, and
 * getLoginItemSettings({path, args}) true only when that value is the command line those make (path defaults to
 * the running executable, args to none), as Electron's docs describe.
 */
function windowsRunKey(running: string) {
  const run = new Map<string, string>();
  const line = (path = running, args: string[] = []) => [`"${path}"`, ...args].join(' ');
  const app: LoginItemDeps['app'] = {
    getLoginItemSettings: (options = {}) => ({
      openAtLogin: run.get('AITI Bridge') === line(options.path, options.args),
    }),
    setLoginItemSettings: (settings) => {
      if (settings.openAtLogin) run.set('AITI Bridge', line(settings.path, settings.args));
      else run.delete('AITI Bridge');
    },
  };
  return { app, run };
}

const deps = (over: Partial<LoginItemDeps>): LoginItemDeps => ({
  platform: 'win32',
  app: windowsRunKey(EXE).app,
  execPath: EXE,
  packaged: true,
  mainScript: MAIN,
  autostartDir: join(tempDir(), 'autostart'),
  ...over,
});

describe('"Start at login"', () => {
  it('on Windows reads the item back with the path and args it was set with, so it shows on and turns off', () => {
    const { app, run } = windowsRunKey(EXE);
    const toggle = loginItem(deps({ app }));
    expect(toggle.get()).toBe(false);
    toggle.set(true);
    expect(run.get('AITI Bridge')).toBe(`"${EXE}" --hidden`);
    expect(toggle.get()).toBe(true);
    toggle.set(false);
    expect(run.size).toBe(0);
    expect(toggle.get()).toBe(false);
  });

  it('on Windows in development starts Electron with the main script, quoted, never the bare binary', () => {
    const { app, run } = windowsRunKey(ELECTRON);
    const toggle = loginItem(deps({ app, execPath: ELECTRON, packaged: false }));
    toggle.set(true);
    expect(run.get('AITI Bridge')).toBe(`"${ELECTRON}" "${MAIN}" --hidden`);
    expect(toggle.get()).toBe(true);
  });

  it('on macOS in development refuses, saying why, and changes nothing', () => {
    const set: unknown[] = [];
    const app: LoginItemDeps['app'] = {
      getLoginItemSettings: () => ({ openAtLogin: false }),
      setLoginItemSettings: (settings) => set.push(settings),
    };
    const electron = '/src/aiti/node_modules/electron/dist/Electron.app/Contents/MacOS/Electron';
    const toggle = loginItem(deps({ platform: 'darwin', app, execPath: electron, packaged: false }));
    expect(() => toggle.set(true)).toThrow(
      `Start at login needs the installed app: in development macOS would start the bare Electron binary (${electron}), which opens Electron's default app, not AITI Bridge. Build it with "npm run dist" and start the app from release/`,
    );
    expect(set).toEqual([]);
    // turning it off is always allowed (an item left from an installed app)
    toggle.set(false);
    expect(set).toEqual([{ openAtLogin: false }]);
  });

  it('on macOS, installed, uses the app bundle itself', () => {
    const set: unknown[] = [];
    const app: LoginItemDeps['app'] = {
      getLoginItemSettings: () => ({ openAtLogin: true }),
      setLoginItemSettings: (settings) => set.push(settings),
    };
    const toggle = loginItem(deps({ platform: 'darwin', app, execPath: '/Applications/AITI Bridge.app' }));
    toggle.set(true);
    expect(set).toEqual([{ openAtLogin: true }]);
    expect(toggle.get()).toBe(true);
  });

  it('on Linux writes an autostart entry; in development it runs Electron on the main script', () => {
    const autostartDir = join(tempDir(), 'autostart');
    const electron = '/src/aiti/node_modules/electron/dist/electron';
    const main = '/src/aiti/dist/electron/main.js';
    const dev = loginItem(
      deps({ platform: 'linux', execPath: electron, packaged: false, mainScript: main, autostartDir }),
    );
    dev.set(true);
    const entry = join(autostartDir, 'aiti-bridge.desktop');
    expect(readFileSync(entry, 'utf8')).toContain(`Exec="${electron}" "${main}" --hidden\n`);
    expect(dev.get()).toBe(true);
    dev.set(false);
    expect(existsSync(entry)).toBe(false);

    const appImage = '/home/me/Apps/AITI Bridge-0.1.0.AppImage';
    loginItem(deps({ platform: 'linux', execPath: appImage, autostartDir })).set(true);
    expect(readFileSync(entry, 'utf8')).toContain(`Exec="${appImage}" --hidden\n`);
  });
});
