import {
  closeSync,
  existsSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { isRunning } from '../process-alive.js';

/** How many dated backups of one config file are kept beside it; older ones are deleted. */
export const BACKUPS_KEPT = 5;

const BACKUP_INFIX = '.aiti-backup-';

/** The file changed between the moment it was read and the moment it was to be replaced. */
export class ConfigChangedError extends Error {
  constructor(readonly file: string) {
    super(`${file} changed while it was being edited`);
  }
}

export interface ReplaceOptions {
  /** runs after the new text is on disk in its temporary file, just before the check and the rename (tests) */
  beforeReplace?(file: string): void;
  /** the clock for the backup's name (tests) */
  now?: Date;
}

/** What replacing a config file did. */
export interface Replaced {
  /** the dated copy of the text it replaced (none for a new file) */
  backup?: string;
}

/**
 * Replaces a client's config file as a whole, so the client never reads half of it: the new text goes to a temporary
 * file in the same folder with the old file's mode, is flushed to disk, and is renamed over the old one. Just before
 * the rename the file is read again: if it no longer holds `expected` (the client rewrote it meanwhile), nothing is
 * replaced and ConfigChangedError says so, so the caller can plan again from the new text. The text it replaces is
 * kept first as `<file>.aiti-backup-<UTC time>` (the newest BACKUPS_KEPT of them). A symlinked config is written
 * through the link (a dotfiles checkout stays the one copy). `expected` undefined means the file must not exist yet.
 */
export function replaceConfigFile(
  file: string,
  expected: string | undefined,
  next: string,
  options: ReplaceOptions = {},
): Replaced {
  const target = existsSync(file) && lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  const mode = expected === undefined ? 0o600 : statSync(target).mode & 0o777;
  collectTemps(target);
  const temp = join(dirname(target), `.${basename(target)}.aiti-${process.pid}-${randomBytes(4).toString('hex')}`);
  let backup: string | undefined;
  try {
    writeDurably(temp, next, mode);
    if (expected !== undefined) backup = writeBackup(target, expected, mode, options.now ?? new Date());
    options.beforeReplace?.(file);
    // the last look: the text as it was read, then — reading a big config takes a while — the file's identity
    // again right before the rename. A client's rewrite since the read is caught unless it lands in the few
    // microseconds between that stat and the rename (no lock is shared with the clients, so none can close it)
    const seen = identity(target);
    if (current(target) !== expected) throw new ConfigChangedError(file);
    if (identity(target) !== seen) throw new ConfigChangedError(file);
    renameOver(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    if (backup) rmSync(backup, { force: true });
    throw error;
  }
  syncFolder(dirname(target));
  if (backup) pruneBackups(target);
  return backup ? { backup } : {};
}

/**
 * The temporary files of an earlier run that was killed mid-write (`.<name>.aiti-<pid>-<random>` beside the config,
 * its process gone): removed before this run writes its own.
 */
function collectTemps(target: string): void {
  const pattern = new RegExp(
    `^\\.${basename(target).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.aiti-(\\d+)-[0-9a-f]{8}$`,
  );
  let names: string[];
  try {
    names = readdirSync(dirname(target));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(pattern.exec(name)?.[1] ?? NaN);
    if (!Number.isInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    rmSync(join(dirname(target), name), { force: true });
  }
}

/**
 * rename(2) over the old file. Windows refuses it for a moment while another program (an editor, an indexer, a
 * virus scanner) has the file open: try again for up to a second there.
 */
function renameOver(from: string, to: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      return renameSync(from, to);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const busy = process.platform === 'win32' && (code === 'EPERM' || code === 'EACCES' || code === 'EBUSY');
      if (!busy || attempt === 10) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}

/** Which file is there now: its inode, size and change time (a rename over it or a write changes one), or none. */
function identity(file: string): string {
  try {
    const { ino, size, mtimeNs, ctimeNs } = statSync(file, { bigint: true });
    return `${ino}:${size}:${mtimeNs}:${ctimeNs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
}

/** The file's text now, or undefined when it does not exist. */
function current(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Writes a new file with `mode` (whatever the umask) and flushes it to disk before returning. */
function writeDurably(file: string, text: string, mode: number): void {
  const fd = openSync(file, 'wx', mode);
  try {
    fchmodSync(fd, mode);
    const bytes = Buffer.from(text, 'utf8');
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The rename is durable once the folder's entry is flushed too (not possible on Windows, where it is not needed). */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Windows cannot open a folder for fsync; NTFS journals the rename itself
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `<file>.aiti-backup-20261201T155956Z`, with `-2`, `-3` … for a second backup in the same second. */
function writeBackup(file: string, text: string, mode: number, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; ; n++) {
    const backup = `${file}${BACKUP_INFIX}${stamp}${n === 1 ? '' : `-${n}`}`;
    try {
      writeDurably(backup, text, mode);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** The dated backups of `file`, oldest first. */
export function backupsOf(file: string): string[] {
  const prefix = basename(file) + BACKUP_INFIX;
  const stampOf = (name: string) => {
    // a same-second sequence number sorts after the plain stamp: 20261201T155956Z < …Z-2 < …Z-10
    const [stamp = '', seq = '1'] = name.slice(prefix.length).split('-');
    return `${stamp}-${seq.padStart(6, '0')}`;
  };
  return readdirSync(dirname(file))
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => stampOf(a).localeCompare(stampOf(b)))
    .map((name) => join(dirname(file), name));
}

function pruneBackups(file: string): void {
  const all = backupsOf(file);
  for (const old of all.slice(0, Math.max(0, all.length - BACKUPS_KEPT))) rmSync(old, { force: true });
}
