import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Unavailable } from './errors.js';
import { isRunning } from './process-alive.js';

/**
 * Files only this user may read: the data dir and what is in it (tokens, journals, agent ids, allowed origins),
 * and the directory of the Unix socket. Modes are set explicitly, so the umask (022 on most systems, which would
 * leave directories 755 and files 644) does not decide who can list agent ids or read the journal.
 *
 * The bridge's small files are written here and nowhere else: `appendLine` for the line files, `replaceFile` for
 * the files replaced whole, `createOnce` for a file made once (a token). Each is on disk before it resolves, in the
 * order a power cut needs (write → fsync → rename → fsync of the directory), runs off the main thread, and fails
 * with a DiskError that says exactly what is on disk now.
 */

/** Directories: only the owner may enter, list or write. */
export const PRIVATE_DIR = 0o700;
/** Files: only the owner may read or write. */
export const PRIVATE_FILE = 0o600;

/** What a failed write left on disk. */
export type DiskOutcome =
  /** nothing changed: the file is as it was before */
  | 'unchanged'
  /** the change is in the file, but the disk did not confirm it: it may not survive a power cut */
  | 'unconfirmed';

/**
 * A write the disk refused, for people and for the HTTP edge (a 503): the file, the errno and the system call,
 * and what is on disk now — never "nothing changed" when the change is in the file.
 */
export class DiskError extends Unavailable {
  constructor(
    readonly file: string,
    readonly outcome: DiskOutcome,
    /** the error the system call failed with (its code, syscall and path) */
    readonly failure: NodeJS.ErrnoException,
    what: string,
  ) {
    super(
      `${what}: ${failure.syscall ?? 'a write'} of ${failure.path ?? file} failed with ${failure.code ?? failure.message}; ` +
        (outcome === 'unchanged'
          ? 'nothing was changed'
          : `the change is in ${file}, but the disk did not confirm it (it may be lost if the power goes)`) +
        advice(failure.code),
    );
  }
}

function advice(code: string | undefined): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return ' — free disk space and try again';
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') return ' — make the data dir writable again';
  if (code === 'EMFILE' || code === 'ENFILE') return ' — the bridge has too many files open; try again';
  return ' — check the disk of the data dir';
}

/**
 * Creates `dir` (and missing parents) and makes it 0700, whatever the umask and whatever mode it had. Returns why
 * its mode could not be closed (a read-only file system, another owner), or undefined; a failed mkdir throws.
 * Synchronous: the bridge calls it while it starts, before it serves.
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
export function makeDirs(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw error;
    makeDirs(dirname(dir));
    mkdirSync(dir, { mode: PRIVATE_DIR });
  }
}

/** Writes a file only its owner may read, whatever mode an older copy of it had (the desktop app's settings). */
export function writePrivateFile(file: string, data: string | Uint8Array): void {
  writeFileSync(file, data, { mode: PRIVATE_FILE });
  if (process.platform !== 'win32') chmodSync(file, PRIVATE_FILE);
}

/** Makes a new or renamed file's name durable: fsync of its directory (Windows cannot open one: nothing to do). */
export async function syncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * The temporary files this module makes beside a file: `.<name>.aiti-<pid>-<random>.tmp`. One left behind (the
 * bridge was killed mid-write) is collected at the next start (`leftoverOwner` names its process).
 */
export function tempNameFor(file: string): string {
  return join(dirname(file), `.${basename(file)}.aiti-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * The temporary files of ours a killed process can leave in a folder: this module's, and older bridges' (`<file>.<pid>.tmp`,
 * the start's `.write-check-<pid>`). Each name gives the process that made it.
 */
const LEFTOVERS = [
  /^\..+\.aiti-(\d+)-[0-9a-f]{8}\.tmp$/,
  /^(?:page-ids\.jsonl|mcp-sessions\.jsonl|quick-replies\.json|devices\.json|allowed-origins\.json)\.(\d+)\.tmp$/,
  /^\.write-check-(\d+)$/,
];

/** The process that made a temporary file of ours (by its name), or undefined when the name is not one of ours. */
export function leftoverOwner(name: string): number | undefined {
  for (const pattern of LEFTOVERS) {
    const pid = pattern.exec(name)?.[1];
    if (pid !== undefined) return Number(pid);
  }
  return undefined;
}

/**
 * Removes the temporary files a killed process of ours left in `dir` (one still running keeps its own). Returns
 * the names removed, for the log.
 */
export async function collectLeftovers(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const pid = leftoverOwner(name);
    if (pid === undefined || pid === process.pid || isRunning(pid)) continue;
    await rm(join(dir, name), { force: true }).then(
      () => removed.push(name),
      () => undefined,
    );
  }
  return removed;
}

/** Writes all of `data` (one write can stop short on a full disk; ENOSPC comes only on the next). */
async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  for (let offset = 0; offset < data.length;) {
    const { bytesWritten } = await handle.write(data, offset, data.length - offset, null);
    offset += bytesWritten;
  }
}

/**
 * Replaces `file` with `text`: written whole to a temporary file (0600), fsynced, renamed over the old one, the
 * directory fsynced; resolves once all of that is done. A failure before the rename leaves the old file as it was
 * and no temporary file (DiskError 'unchanged'); one after it (the directory's fsync) leaves the new file in place,
 * unconfirmed (DiskError 'unconfirmed'): the caller's memory must then follow the file, and its answer say so.
 */
export async function replaceFile(file: string, text: string, what = `could not save ${file}`): Promise<void> {
  const temp = tempNameFor(file);
  try {
    const handle = await open(temp, 'wx', PRIVATE_FILE);
    try {
      // only the owner reads it, whatever the umask
      if (process.platform !== 'win32') await handle.chmod(PRIVATE_FILE);
      await writeAll(handle, Buffer.from(text));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new DiskError(file, 'unchanged', error as NodeJS.ErrnoException, what);
  }
  try {
    await syncDir(dirname(file));
  } catch (error) {
    throw new DiskError(file, 'unconfirmed', inFolder(error, dirname(file)), what);
  }
}

/** A failed fsync of a folder names the folder (a FileHandle's error names no path). */
function inFolder(error: unknown, dir: string): NodeJS.ErrnoException {
  return Object.assign(error as NodeJS.ErrnoException, { path: (error as NodeJS.ErrnoException).path ?? dir });
}

/**
 * Appends `text` (whole lines, each ending with "\n") to a JSON-lines file; resolves once it is on disk (with
 * `sync: false`, once written: records a crash may lose). A last line a crash cut short is ended first, so the new
 * line is never glued to a fragment and read as garbage with it. A file this call makes has its directory fsynced
 * too. Appends to one file that meet are one write and one fsync (a group commit, as the journal's). A write that
 * fails part way is cut back to where the file ended, and the DiskError says nothing changed; when even the cut
 * fails it says the line may be there (a reader skips a fragment; the next append ends it).
 */
export function appendLine(
  file: string,
  text: string,
  { sync = true, what = `could not write to ${file}` }: { sync?: boolean; what?: string } = {},
): Promise<void> {
  let queue = appending.get(file);
  if (!queue) {
    queue = { batch: undefined, running: Promise.resolve() };
    appending.set(file, queue);
  }
  const waiting = queue;
  if (!waiting.batch) {
    const batch: LineBatch = { text: [], sync: false, what, done: Promise.resolve() };
    waiting.batch = batch;
    // the batch is written once the one before it is done; whoever appends meanwhile joins it
    batch.done = waiting.running.then(() => {
      waiting.batch = undefined;
      return appendNow(file, batch.text.join(''), batch.sync, batch.what);
    });
    waiting.running = batch.done.catch(() => undefined);
    void waiting.running.then(() => {
      if (appending.get(file) === waiting && !waiting.batch) appending.delete(file);
    });
  }
  waiting.batch.text.push(text);
  waiting.batch.sync ||= sync;
  return waiting.batch.done;
}

interface LineBatch {
  text: string[];
  sync: boolean;
  what: string;
  done: Promise<void>;
}

/** Per file: the batch being gathered, and the write before it. */
const appending = new Map<string, { batch: LineBatch | undefined; running: Promise<void> }>();

async function appendNow(file: string, text: string, sync: boolean, what: string): Promise<void> {
  let handle: FileHandle | undefined;
  let created = false;
  let size = 0;
  try {
    try {
      handle = await open(file, 'ax', PRIVATE_FILE);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // appends land at the end even when another process (the CLI) appends meanwhile
      handle = await open(file, 'a+');
    }
    size = (await handle.stat()).size;
    let data = Buffer.from(text);
    if (size > 0) {
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) data = Buffer.concat([Buffer.from('\n'), data]);
    }
    await writeAll(handle, data);
    if (sync) await handle.sync();
  } catch (error) {
    let outcome: DiskOutcome = 'unchanged';
    if (handle && !created)
      await handle.truncate(size).catch(() => {
        outcome = 'unconfirmed';
      });
    await handle?.close().catch(() => undefined);
    if (created) await rm(file, { force: true }).catch(() => undefined);
    throw new DiskError(file, outcome, error as NodeJS.ErrnoException, what);
  }
  await handle.close().catch(() => undefined);
  if (created && sync) {
    try {
      await syncDir(dirname(file));
    } catch (error) {
      throw new DiskError(file, 'unconfirmed', inFolder(error, dirname(file)), what);
    }
  }
}

/**
 * Makes `file` holding `text` unless it exists already, atomically: written whole to a temporary file, fsynced,
 * then linked under its name (a link never replaces: of two processes that start at once, one makes it and the
 * other reads what the first wrote, whole), the directory fsynced. Resolves with what the file holds.
 */
export async function createOnce(file: string, text: string, what = `could not create ${file}`): Promise<string> {
  // most starts find it made: nothing is written then
  const found = await readFile(file, 'utf8').catch(() => '');
  if (found) return found;
  const temp = tempNameFor(file);
  let made = false;
  try {
    await mkdir(dirname(file), { recursive: true, mode: PRIVATE_DIR });
    const handle = await open(temp, 'wx', PRIVATE_FILE);
    try {
      if (process.platform !== 'win32') await handle.chmod(PRIVATE_FILE);
      await writeAll(handle, Buffer.from(text));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, file);
      made = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await rm(temp, { force: true });
    if (made) await syncDir(dirname(file));
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new DiskError(file, made ? 'unconfirmed' : 'unchanged', error as NodeJS.ErrnoException, what);
  }
  return made ? text : readFile(file, 'utf8');
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
