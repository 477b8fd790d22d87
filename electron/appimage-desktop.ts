import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { APP_ID, DESKTOP_FILE, PRODUCT_NAME } from './app-id.js';

export interface AppImageDesktopDeps {
  /** $APPIMAGE: the AppImage file the app runs from (unset when it runs from anything else) */
  appImage: string | undefined;
  /** $XDG_DATA_HOME, or ~/.local/share */
  dataHome: string;
  /** the app's 512 px icon inside the AppImage (gone once it exits: it is copied out) */
  icon: string;
}

/** Marks an entry this module wrote, so it is kept up to date and one a person or a tool wrote is left alone. */
const MARK = 'X-AITI-AppImage=true';

/**
 * An AppImage installs nothing, so no `.desktop` file names the app's id and portals refuse it (no Wayland
 * shortcut, no badge, a generic dock icon). On each start from an AppImage this writes
 * `<dataHome>/applications/dev.aiti.bridge.desktop` pointing at that AppImage, with the icon copied beside it —
 * again whenever the AppImage moved — unless a user entry of that name not written here exists. Returns what it
 * did, for the log; never throws (a read-only home only loses the integration).
 */
export function installAppImageDesktopEntry(deps: AppImageDesktopDeps): string | undefined {
  if (!deps.appImage) return undefined;
  const entryFile = join(deps.dataHome, 'applications', DESKTOP_FILE);
  const iconFile = join(deps.dataHome, 'icons', 'hicolor', '512x512', 'apps', `${APP_ID}.png`);
  const entry = desktopEntry(deps.appImage, iconFile);
  try {
    if (existsSync(entryFile)) {
      const current = readFileSync(entryFile, 'utf8');
      if (!current.includes(MARK)) return `kept ${entryFile}: it was not written by this app`;
      if (current === entry && existsSync(iconFile)) return undefined;
    }
    mkdirSync(dirname(iconFile), { recursive: true });
    copyFileSync(deps.icon, iconFile);
    mkdirSync(dirname(entryFile), { recursive: true });
    writeFileSync(`${entryFile}.tmp`, entry);
    renameSync(`${entryFile}.tmp`, entryFile);
    return `wrote ${entryFile} for ${deps.appImage}`;
  } catch (error) {
    return `could not write ${entryFile}: ${(error as Error).message}`;
  }
}

/** The entry for this AppImage: the app id as file name and StartupWMClass, its path quoted per the spec. */
export function desktopEntry(appImage: string, icon: string): string {
  const exec = `"${appImage.replace(/(["`$\\])/g, '\\$1')}"`;
  return [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${PRODUCT_NAME}`,
    'Comment=A local bridge between AI coding agents, the pages they build, and you',
    `Exec=${exec} %U`,
    `Icon=${icon}`,
    `StartupWMClass=${APP_ID}`,
    'Categories=Development;',
    'Terminal=false',
    MARK,
    '',
  ].join('\n');
}
