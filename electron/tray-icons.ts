import { join } from 'node:path';

/**
 * The tray images for this platform, from build/tray/ (scripts/make-icons.js). Windows gets ICO files holding
 * every size from 16 to 64 px, so the icon stays sharp at 125–300 % scaling; macOS and Linux take the PNG, and
 * Electron picks its @2x sibling on a HiDPI screen.
 */
export function trayIcons(folder: string, platform: NodeJS.Platform): { idle: string; attention: string } {
  const ext = platform === 'win32' ? 'ico' : 'png';
  return { idle: join(folder, `tray.${ext}`), attention: join(folder, `tray-ask.${ext}`) };
}
