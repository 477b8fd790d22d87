// An AppImage installs no .desktop file, so portals would refuse the app's id: on start it writes its own, in the
// user's data home, on real files.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../electron/app-id.js';
import { installAppImageDesktopEntry } from '../../electron/appimage-desktop.js';
import { tempDir } from '../helpers/bridge.js';

function setup() {
  const dataHome = tempDir('aiti-data-home-');
  const icon = join(tempDir(), 'icon.png');
  writeFileSync(icon, 'PNG bytes');
  return { dataHome, icon, entry: join(dataHome, 'applications', `${APP_ID}.desktop`) };
}

describe('the AppImage desktop entry', () => {
  it('is written under the app id, runs this AppImage, and carries the icon copied out of it', () => {
    const { dataHome, icon, entry } = setup();
    const appImage = '/home/ada/Apps/AITI Bridge "beta".AppImage';
    expect(installAppImageDesktopEntry({ appImage, dataHome, icon })).toBe(`wrote ${entry} for ${appImage}`);
    const text = readFileSync(entry, 'utf8');
    expect(text).toContain('Exec="/home/ada/Apps/AITI Bridge \\"beta\\".AppImage" %U\n');
    expect(text).toContain(`StartupWMClass=${APP_ID}\n`);
    const iconFile = /^Icon=(.+)$/m.exec(text)?.[1] ?? '';
    expect(readFileSync(iconFile, 'utf8')).toBe('PNG bytes');
    // the next start from the same place changes nothing
    expect(installAppImageDesktopEntry({ appImage, dataHome, icon })).toBeUndefined();
  });

  it('follows the AppImage when it moved, and leaves an entry it did not write alone', () => {
    const { dataHome, icon, entry } = setup();
    installAppImageDesktopEntry({ appImage: '/tmp/old.AppImage', dataHome, icon });
    installAppImageDesktopEntry({ appImage: '/opt/new.AppImage', dataHome, icon });
    expect(readFileSync(entry, 'utf8')).toContain('Exec="/opt/new.AppImage" %U');
    writeFileSync(entry, '[Desktop Entry]\nName=Mine\nExec=/usr/local/bin/aiti\n');
    expect(installAppImageDesktopEntry({ appImage: '/opt/new.AppImage', dataHome, icon })).toBe(
      `kept ${entry}: it was not written by this app`,
    );
    expect(readFileSync(entry, 'utf8')).toContain('Name=Mine');
  });

  it('does nothing outside an AppImage, and says why when the data home cannot be written', () => {
    const { dataHome, icon, entry } = setup();
    expect(installAppImageDesktopEntry({ appImage: undefined, dataHome, icon })).toBeUndefined();
    expect(existsSync(entry)).toBe(false);
    // a file where the folder should be: no permission bit stops root, this stops everyone
    writeFileSync(join(dataHome, 'applications'), '');
    expect(installAppImageDesktopEntry({ appImage: '/opt/a.AppImage', dataHome, icon })).toMatch(
      /^could not write .*dev\.aiti\.bridge\.desktop: (EEXIST|ENOTDIR)/,
    );
  });
});
