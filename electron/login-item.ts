import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Toggle } from './tray.js';

/** The argument a login launch carries: the app starts in the tray, without showing its window. */
export const HIDDEN_ARG = '--hidden';

export interface LoginItemDeps {
  platform: NodeJS.Platform;
  app: {
    getLoginItemSettings(): { openAtLogin: boolean };
    setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void;
  };
  /** the program to start at login (on Linux inside an AppImage: $APPIMAGE, not the mounted binary) */
  execPath: string;
  /** `~/.config/autostart` on Linux (XDG) */
  autostartDir: string;
}

/**
 * "Start at login": Electron's login items on macOS and Windows; on Linux, where Electron has none, an XDG
 * autostart entry.
 */
export function loginItem(deps: LoginItemDeps): Toggle {
  if (deps.platform !== 'linux') {
    return {
      get: () => deps.app.getLoginItemSettings().openAtLogin,
      set: (on) => deps.app.setLoginItemSettings({ openAtLogin: on, args: [HIDDEN_ARG] }),
    };
  }
  const file = join(deps.autostartDir, 'aiti-bridge.desktop');
  return {
    get: () => existsSync(file),
    set: (on) => {
      if (!on) return rmSync(file, { force: true });
      mkdirSync(deps.autostartDir, { recursive: true });
      writeFileSync(file, autostartEntry(deps.execPath));
    },
  };
}

export function autostartEntry(execPath: string): string {
  const quoted = `"${execPath.replace(/(["`$\\])/g, '\\$1')}"`;
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
