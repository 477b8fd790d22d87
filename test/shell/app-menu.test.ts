// The application menu, typechecked against electron.d.ts (MenuItemConstructorOptions) and read as Electron's
// Menu.buildFromTemplate would take it.
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { appMenu } from '../../electron/app-menu.js';
import { trayNotice } from '../../electron/tray-presence.js';

function menu(platform: NodeJS.Platform, packaged: boolean) {
  const seen = { quit: 0, compose: 0, shown: 0 };
  const template = appMenu({
    platform,
    packaged,
    quit: () => seen.quit++,
    composeToAll: () => seen.compose++,
    showWindow: () => seen.shown++,
  });
  return { template, seen };
}

/** every item, at any depth */
const items = (template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
const find = (template: MenuItemConstructorOptions[], label: string) => {
  const item = items(template).find((i) => i.label === label);
  if (!item) throw new Error(`no "${label}" in the menu`);
  return item;
};
const DEVELOPER = ['reload', 'forceReload', 'toggleDevTools'];

describe('the application menu', () => {
  it('has no reload and no developer tools in an installed app, on any system', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const roles = items(menu(platform, true).template).map((i) => i.role);
      expect(
        roles.filter((role) => DEVELOPER.includes(String(role))),
        platform,
      ).toEqual([]);
      // copy and paste keep working (on macOS only the Edit menu gives them their shortcuts)
      expect(roles).toEqual(expect.arrayContaining(['copy', 'paste', 'selectAll', 'undo']));
    }
    const dev = items(menu('linux', false).template).map((i) => i.role);
    expect(dev).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
  });

  it('Windows and Linux: File → Quit with Ctrl+Q, as the no-tray notice tells the human', () => {
    const { template, seen } = menu('linux', true);
    expect(template.map((m) => m.label)).toEqual(['File', 'Edit', 'View']);
    const quit = find(template, 'Quit');
    expect(quit.accelerator).toBe('CommandOrControl+Q');
    quit.click?.({} as never, undefined, {} as never);
    expect(seen.quit).toBe(1);
    expect(trayNotice('unknown')).toContain('File → Quit (Ctrl+Q)');
  });

  it("macOS: the app's own menu under its name, and Push to all… in File", () => {
    const { template, seen } = menu('darwin', true);
    expect(template.map((m) => m.label)).toEqual(['AITI Bridge', 'File', 'Edit', 'View', 'Window']);
    expect(find(template, 'Quit AITI Bridge').accelerator).toBe('CommandOrControl+Q');
    find(template, 'Push to all…').click?.({} as never, undefined, {} as never);
    expect(seen.compose).toBe(1);
  });
});
