import { join } from 'node:path';

/**
 * The tray images for this platform, from build/tray/ (scripts/make-icons.js). Windows gets ICO files holding
 * every size from 16 to 64 px, so the icon stays sharp at 125–300 % scaling; macOS gets template images (black on
 * transparent, named "…Template" so Electron marks them), which the menu bar tints for a light or dark bar; Linux
 * takes the colour PNG. On macOS and Linux Electron picks the @2x sibling on a HiDPI screen.
 */
export function trayIcons(folder: string, platform: NodeJS.Platform): { idle: string; attention: string } {
  const name = (base: string) =>
    platform === 'win32' ? `${base}.ico` : platform === 'darwin' ? `${base}Template.png` : `${base}.png`;
  return { idle: join(folder, name('tray')), attention: join(folder, name('tray-ask')) };
}
