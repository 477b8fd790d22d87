import { chmodSync, lstatSync, mkdirSync, statSync, writeFileSync } from 'node:fs';

/**
 * Files only this user may read: the data dir and what is in it (tokens, journals, agent ids, allowed origins),
 * and the directory of the Unix socket. Modes are set explicitly, so the umask (022 on most systems, which would
 * leave directories 755 and files 644) does not decide who can list agent ids or read the journal.
 */

/** Directories: only the owner may enter, list or write. */
export const PRIVATE_DIR = 0o700;
/** Files: only the owner may read or write. */
export const PRIVATE_FILE = 0o600;

/**
 * Creates `dir` (and missing parents) and makes it 0700, whatever the umask and whatever mode it had. Returns why
 * its mode could not be closed (a read-only file system, another owner), or undefined; a failed mkdir throws.
 */
export function privateDir(dir: string): string | undefined {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  if (process.platform === 'win32' || (statSync(dir).mode & 0o777) === PRIVATE_DIR) return undefined;
  try {
    chmodSync(dir, PRIVATE_DIR);
    return undefined;
  } catch (error) {
    return `cannot make ${dir} private (mode 700): ${(error as Error).message}`;
  }
}

/** Writes a file only its owner may read, whatever mode an older copy of it had. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  writeFileSync(file, data, { mode: PRIVATE_FILE });
  if (process.platform !== 'win32') chmodSync(file, PRIVATE_FILE);
}

/**
 * Why another user could reach what is in `dir` (it is not a directory of this user that only they may enter),
 * or undefined when only this user can. Windows has no such modes: undefined there.
 */
export function sharedDirProblem(dir: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || process.platform === 'win32') return undefined;
  let stat;
  try {
    stat = lstatSync(dir);
  } catch (error) {
    return `${dir} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
  }
  if (stat.isSymbolicLink()) return `${dir} is a symbolic link (another user could point it elsewhere)`;
  if (!stat.isDirectory()) return `${dir} is not a directory`;
  if (stat.uid !== uid) return `${dir} belongs to user ${stat.uid}, not to you (${uid})`;
  if ((stat.mode & 0o077) !== 0)
    return `${dir} can be entered by other users (mode ${(stat.mode & 0o7777).toString(8)}; it must be 700)`;
  return undefined;
}
