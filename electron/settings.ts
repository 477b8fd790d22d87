import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writePrivateFile } from '../bridge/private-files.js';

/** The desktop app's own settings, beside the bridge's files: `<dataDir>/aiti-bridge/desktop.json`. */
export const DesktopSettings = z.object({
  /** the global shortcut's accelerator (AITI_SHORTCUT wins over it) */
  shortcut: z.string().optional(),
  notificationsPaused: z.boolean().default(false),
});
export type DesktopSettings = z.infer<typeof DesktopSettings>;

export interface SettingsStore {
  readonly file: string;
  get(): DesktopSettings;
  update(change: Partial<DesktopSettings>): DesktopSettings;
  /** set when the file existed but could not be used (the defaults are used instead) */
  readonly problem?: string;
}

/** Reads the settings once; a broken file is reported and replaced on the next change, never fatal. */
export function openSettings(appDir: string): SettingsStore {
  const file = join(appDir, 'desktop.json');
  let settings: DesktopSettings = DesktopSettings.parse({});
  let problem: string | undefined;
  try {
    const parsed = DesktopSettings.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) settings = parsed.data;
    else problem = `${file} is not valid (${parsed.error.issues[0]?.message ?? 'bad shape'}); using the defaults`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problem = `cannot read ${file}: ${(error as Error).message}; using the defaults`;
  }
  return {
    file,
    problem,
    get: () => settings,
    update: (change) => {
      settings = { ...settings, ...change };
      writePrivateFile(file, JSON.stringify(settings, null, 2) + '\n');
      return settings;
    },
  };
}
