import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Toggle } from './tray.js';

/** The argument a login launch carries: the app starts in the tray, without showing its window. */
export const HIDDEN_ARG = '--hidden';

/** Where a login item points and with which arguments (Electron's `path` and `args`, Windows only). */
interface LoginLaunch {
  path?: string;
  args?: string[];
}

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  app: {
    getLoginItemSettings(options?: LoginLaunch): { openAtLogin: boolean };
    setLoginItemSettings(settings: { openAtLogin: boolean } & LoginLaunch): void;
  };
  /** the program to start at login (on Linux inside an AppImage: $APPIMAGE, not the mounted binary) */
  execPath: string;
  /** app.isPackaged: false when the bare Electron binary of node_modules runs a main script (npm start) */
  packaged: boolean;
  /** in development, that main script (dist/electron/main.js): Electron alone would open its default app */
  mainScript: string;
  /** `~/.config/autostart` on Linux (XDG) */
  autostartDir: string;
}

/**
 * "Start at login": Electron's login items on macOS and Windows; on Linux, where Electron has none, an XDG
 * autostart entry. Windows reads the item back with the very `path` and `args` it was set with (Electron compares
 * them: read without them, an item set with `--hidden` always looks off). In development the login launch names
 * the main script after the Electron binary; macOS cannot pass it one, so there the toggle refuses, saying why.
 */
export function loginItem(deps: LoginItemDeps): Toggle {
  const script = deps.packaged ? [] : [deps.mainScript];
  if (deps.platform === 'win32') {
    // Electron joins the args into one command line: paths need their quotes
    const launch = { path: deps.execPath, args: [...script.map((s) => `"${s}"`), HIDDEN_ARG] };
    return {
      get: () => deps.app.getLoginItemSettings(launch).openAtLogin,
      set: (on) => deps.app.setLoginItemSettings({ openAtLogin: on, ...launch }),
    };
  }
  if (deps.platform === 'darwin') {
    return {
      get: () => deps.app.getLoginItemSettings().openAtLogin,
      set: (on) => {
        if (on && !deps.packaged) {
          throw new Error(
            `Start at login needs the installed app: in development macOS would start the bare Electron binary (${deps.execPath}), which opens Electron's default app, not AITI Bridge. Build it with "npm run dist" and start the app from release/`,
          );
        }
        deps.app.setLoginItemSettings({ openAtLogin: on });
      },
    };
  }
  const file = join(deps.autostartDir, 'aiti-bridge.desktop');
  return {
    get: () => existsSync(file),
    set: (on) => {
      if (!on) return rmSync(file, { force: true });
      mkdirSync(deps.autostartDir, { recursive: true });
      writeFileSync(file, autostartEntry([deps.execPath, ...script]));
    },
  };
}

/** The XDG autostart entry running `command` (the program and its first arguments) with --hidden. */
export function autostartEntry(command: readonly string[]): string {
  const quoted = command.map((part) => `"${part.replace(/(["`$\\])/g, '\\$1')}"`).join(' ');
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=AITI Bridge',
    'Comment=A local bridge between AI coding agents, the pages they build, and you',
    `Exec=${quoted} ${HIDDEN_ARG}`,
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
