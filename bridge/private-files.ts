import {
  chmodSync,
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';

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
  makeDirs(dir);
  if (process.platform === 'win32' || (statSync(dir).mode & 0o777) === PRIVATE_DIR) return undefined;
  try {
    chmodSync(dir, PRIVATE_DIR);
    return undefined;
  } catch (error) {
    return `cannot make ${dir} private (mode 700): ${(error as Error).message}`;
  }
}

/**
 * mkdir -p, 0700. Node's recursive mkdir reports ENOENT for a parent it could not make (a read-only file system
 * says EROFS, a directory of another user EACCES): the parents are made one by one, so the error is the real one.
 */
function makeDirs(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeDirs(dirname(dir));
    mkdirSync(dir, { mode: PRIVATE_DIR });
  }
}

/** Writes a file only its owner may read, whatever mode an older copy of it had. */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  writeFileSync(file, data, { mode: PRIVATE_FILE });
  if (process.platform !== 'win32') chmodSync(file, PRIVATE_FILE);
}

/**
 * Replaces `file` with `text`, on disk before it returns: written whole to a temporary file (writeFileSync writes
 * until all is written or throws, where one writeSync can stop short on a full disk), fsynced, renamed over the old
 * one, the directory fsynced. On any failure the old file is untouched and the temporary one is gone (a full disk
 * keeps no half-written copy), and the error is thrown for the caller to answer 503 with.
 */
export function replacePrivateFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = openSync(temp, 'w', PRIVATE_FILE);
  try {
    // only the owner reads it, whatever the umask or an older temp file's mode
    if (process.platform !== 'win32') fchmodSync(fd, PRIVATE_FILE);
    writeFileSync(fd, text);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temp, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // closed already
    }
    rmSync(temp, { force: true });
    throw error;
  }
  if (process.platform === 'win32') return; // no directory handles to fsync there
  const dir = openSync(dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}

/**
 * Appends one line (`line` ends with "\n") to a JSON-lines file, on disk before it returns (unless `fsync: false`,
 * for records a crash may lose). A write that fails part way is cut back to where the file ended, so every line
 * starts on a line boundary: otherwise the next line would be glued to the fragment and read as garbage with it.
 */
export function appendPrivateLine(file: string, line: string, { fsync = true } = {}): void {
  const fd = openSync(file, 'a', PRIVATE_FILE);
  try {
    const size = fstatSync(fd).size;
    try {
      writeFileSync(fd, line);
      if (fsync) fsyncSync(fd);
    } catch (error) {
      try {
        ftruncateSync(fd, size);
      } catch {
        // a reader skips a torn last line; the next append is cut back again if it fails
      }
      throw error;
    }
  } finally {
    closeSync(fd);
  }
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
