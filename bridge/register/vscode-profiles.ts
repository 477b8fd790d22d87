import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface VscodeProfile {
  /** the name the user gave it (its folder's id when VS Code's storage does not say) */
  name: string;
  /** `<User>/profiles/<id>`: the profile's own settings folder, which holds its own mcp.json */
  folder: string;
}

/**
 * The profiles of one VS Code install besides the default one: the folders under `<User>/profiles/`, named as
 * VS Code lists them in `<User>/globalStorage/storage.json` (`userDataProfiles: [{location, name}]`).
 */
export function vscodeProfiles(userDir: string): VscodeProfile[] {
  let ids: string[];
  try {
    ids = readdirSync(join(userDir, 'profiles'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
  const names = profileNames(userDir);
  return ids.map((id) => ({ name: names.get(id) ?? id, folder: join(userDir, 'profiles', id) }));
}

function profileNames(userDir: string): Map<string, string> {
  const names = new Map<string, string>();
  try {
    const storage = JSON.parse(readFileSync(join(userDir, 'globalStorage', 'storage.json'), 'utf8')) as unknown;
    const list = (storage as { userDataProfiles?: unknown }).userDataProfiles;
    if (!Array.isArray(list)) return names;
    for (const profile of list as Array<{ location?: unknown; name?: unknown }>) {
      if (typeof profile.location === 'string' && typeof profile.name === 'string') {
        names.set(profile.location, profile.name);
      }
    }
  } catch {
    // no storage file, or one this version cannot read: the folder ids name the profiles
  }
  return names;
}
