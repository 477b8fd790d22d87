import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { JOURNAL_MAX_BYTES, type JournalLine } from '../protocol/index.js';
import { Unavailable } from '../errors.js';
import type { Logger } from '../log.js';
import { PRIVATE_DIR } from '../private-files.js';
import { nodeDisk, type JournalDisk } from './disk.js';
import { agentDirName, stampOf } from './names.js';
import { VoidLines } from './void-lines.js';

export interface JournalOptions {
  /** `<dataDir>/aiti-bridge/sessions` */
  dir: string;
  bridgeVersion: string;
  log: Logger;
  /** injectable for tests of the day boundary */
  now?: () => Date;
  maxBytes?: number;
  /** the write path's file operations (tests pass a disk that fails or loses what was never fsynced) */
  disk?: JournalDisk;
}

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface JournalFile {
  agentId: string;
  /** known once it is open (its name holds the time it was opened) */
  path?: string;
  fd?: number;
  /** the file being made: its folder, its name, the fsync of both folders */
  opened: Promise<void>;
  /** bytes on disk (written and fsynced); a batch that fails is cut back to this */
  committed: number;
  /** committed, plus the bytes being written and queued: what the file will hold (for the size limit) */
  size: number;
  /** UTC day of the file, YYYY-MM-DD */
  day: string;
  /** lines appended since the last flush, written by it in one go, and who waits for them */
  pending: string[];
  waiters: Waiter[];
  /** a batch is being written and fsynced */
  busy: boolean;
  /** no more lines: closed once its last batch is done */
  retired: boolean;
  closed: boolean;
}

/** Whether the journal could write its last batches, for bridge_status and the window. */
export interface JournalHealth {
  ok: boolean;
  /** what went wrong, for people (absent while ok) */
  problem?: string;
  /** when it started going wrong (ISO) */
  since?: string;
}

/**
 * The journal's writer (README "Inbox, push and the journal"): append-only JSONL files
 * `<dir>/<agent dir>/<ISO-time>_<uuid>.jsonl` (the agent dir is the id, or its encoding: names.ts), a `session`
 * line first, then the lines of its two owners — the inbox's `message`, `status_change` and `renamed` lines, the
 * asks' `ask_opened` and `ask_countdown` lines (lines.ts). A new file per (agentId, UTC day), past maxBytes, and per
 * bridge run. Reading them back is replay.ts's, apart.
 *
 * Durability is a group commit: `append` queues its line (file order is call order) and resolves after the next
 * flush has written and fsynced that file; the appends of one turn of the event loop, and all that arrive while
 * one fsync runs, share one write and one fsync per file. Every file operation runs off the main thread.
 *
 * A batch that fails (disk full, an fsync error, the file deleted under the bridge) rejects its appends with
 * Unavailable and leaves no fragment: the file is cut back to where the batch began, or retired when that cannot be
 * trusted, so every line starts on a line boundary and a later batch is read whole. When even the cut fails, the
 * refused bytes are named in `void.jsonl` (void-lines.ts) and replay skips them: a refused line never comes back.
 */
export class JournalWriter {
  private readonly files = new Map<string, JournalFile>();
  /** per agent: the time in the newest file name, so file names sort in writing order even when the clock stepped back */
  private readonly lastStamp = new Map<string, Promise<number>>();
  private readonly dirty = new Set<JournalFile>();
  /** files that get no more lines but still have a batch in flight or queued */
  private readonly retiring = new Set<JournalFile>();
  private flushing: Promise<void> | undefined;
  private closed = false;
  private readonly now: () => Date;
  private readonly maxBytes: number;
  private readonly disk: JournalDisk;
  private readonly voids: VoidLines;
  private state: JournalHealth = { ok: true };
  private readonly healthListeners = new Set<(health: JournalHealth) => void>();

  constructor(private readonly options: JournalOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
    this.disk = options.disk ?? nodeDisk;
    this.voids = new VoidLines(options.dir);
    // made once, as the bridge starts; an agent's folder is made as its first line is written (never recursively)
    mkdirSync(options.dir, { recursive: true, mode: PRIVATE_DIR });
  }

  /** Appends one line to the agent's current file; resolves once it is on disk, rejects (Unavailable) if it cannot be. */
  append(agentId: string, line: JournalLine): Promise<void> {
    if (this.closed) return Promise.reject(new Unavailable('the journal is closed (the bridge is stopping)'));
    const text = JSON.stringify(line) + '\n';
    const bytes = Buffer.byteLength(text);
    const file = this.fileFor(agentId, bytes);
    this.write(file, text, bytes);
    return new Promise((resolve, reject) => {
      file.waiters.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  /** Whether the last batches reached the disk; a problem names what failed and what to do. */
  health(): JournalHealth {
    return { ...this.state };
  }

  /** Hears when writing starts failing or works again. */
  onHealth(listener: (health: JournalHealth) => void): () => void {
    this.healthListeners.add(listener);
    return () => this.healthListeners.delete(listener);
  }

  private fileFor(agentId: string, bytes: number): JournalFile {
    const now = this.now();
    const day = now.toISOString().slice(0, 10);
    const current = this.files.get(agentId);
    // a current file is never empty (its session line comes first), so a line bigger than maxBytes gets a file alone
    if (current && current.day === day && current.size + bytes <= this.maxBytes) return current;
    const file: JournalFile = {
      agentId,
      opened: Promise.resolve(),
      committed: 0,
      size: 0,
      day,
      pending: [],
      waiters: [],
      busy: false,
      retired: false,
      closed: false,
    };
    file.opened = this.open(file, now);
    // a file that could not be made is settled here too; its lines are refused by the commit that awaits it
    file.opened.catch(() => undefined);
    if (current) this.retire(current);
    this.files.set(agentId, file);
    const session: JournalLine = {
      type: 'session',
      agentId,
      startedAt: now.toISOString(),
      bridgeVersion: this.options.bridgeVersion,
    };
    const text = JSON.stringify(session) + '\n';
    this.write(file, text, Buffer.byteLength(text));
    return file;
  }

  /** Makes the file: its folder, a name after every file the agent has, the file, the fsync of both folders. */
  private async open(file: JournalFile, now: Date): Promise<void> {
    // never the id itself as a path: "..", "CON" and "a:b" are ids too (names.ts)
    const agentDir = join(this.options.dir, agentDirName(file.agentId));
    // names are taken in the order files are made (the promise chain per agent), each after the one before
    const before = this.lastStamp.get(file.agentId) ?? this.newestStamp(agentDir);
    const stamp = before.then((last) => Math.max(now.getTime(), last + 1));
    this.lastStamp.set(
      file.agentId,
      stamp.catch(() => before),
    );
    try {
      // not recursive: a journal folder that was deleted is not silently made again under a new data dir
      await mkdir(agentDir, { mode: PRIVATE_DIR });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Unavailable(
          `the journal folder ${this.options.dir} is gone (was the data dir deleted or moved?); nothing more can be kept — restart the bridge`,
        );
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // ':' is not allowed in Windows file names, so the time reads 2026-11-30T18-27-32.123Z
    const name = `${new Date(await stamp).toISOString().replace(/:/g, '-')}_${randomUUID()}.jsonl`;
    const path = join(agentDir, name);
    file.fd = await this.disk.open(path);
    file.path = path;
    // the new file's name, and its folder's, survive a power cut before any line in it is acknowledged
    await this.disk.syncDir(agentDir);
    await this.disk.syncDir(this.options.dir);
  }

  /** The time in the newest file name of an agent's folder (0 when it has none yet). */
  private async newestStamp(agentDir: string): Promise<number> {
    let names: string[];
    try {
      names = await readdir(agentDir);
    } catch {
      return 0;
    }
    return names.reduce((newest, name) => Math.max(newest, stampOf(name) ?? 0), 0);
  }

  private write(file: JournalFile, text: string, bytes: number): void {
    file.pending.push(text);
    file.size += bytes;
    this.dirty.add(file);
  }

  /** A file that will get no more lines: closed after its last batch. */
  private retire(file: JournalFile): void {
    file.retired = true;
    if (this.files.get(file.agentId) === file) this.files.delete(file.agentId);
    if (file.busy || file.pending.length) this.retiring.add(file);
    else void this.closeFile(file);
  }

  private async closeFile(file: JournalFile): Promise<void> {
    this.retiring.delete(file);
    // once only: a second close could hit another file that got the same descriptor number
    if (file.closed) return;
    file.closed = true;
    await file.opened.catch(() => undefined);
    if (file.fd === undefined) return;
    await this.disk.close(file.fd).catch(() => undefined);
  }

  private async flush(): Promise<void> {
    // the appends of this turn of the event loop (a burst of requests) share the first write and fsync
    await new Promise((resolve) => setImmediate(resolve));
    while (this.dirty.size) {
      const files = [...this.dirty];
      this.dirty.clear();
      await Promise.all(files.map((file) => this.commit(file)));
    }
    this.flushing = undefined;
  }

  /** Writes the file's queued lines in one go and fsyncs them; on any failure the file holds none of them. */
  private async commit(file: JournalFile): Promise<void> {
    const waiters = file.waiters.splice(0);
    const buffer = Buffer.from(file.pending.join(''));
    file.pending = [];
    const start = file.committed;
    file.busy = true;
    try {
      await file.opened;
      const fd = file.fd ?? -1;
      for (let offset = 0; offset < buffer.length;) offset += await this.disk.write(fd, buffer, offset);
      await this.disk.sync(fd);
      if (!(await this.disk.linked(fd)))
        throw new Unavailable(
          `the journal file ${file.path ?? ''} was deleted while the bridge wrote to it (was the data dir removed?); what it took since is lost`,
        );
      file.committed = start + buffer.length;
      file.busy = false;
      this.healthy();
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      file.busy = false;
      file.size -= buffer.length;
      const reason = this.failed(
        error,
        file.fd === undefined
          ? `cannot open a journal file for ${file.agentId}`
          : `could not write to ${file.path ?? ''}`,
      );
      await this.rollBack(file, start, buffer.length, error);
      for (const waiter of waiters) waiter.reject(reason);
    }
    if (file.retired && !file.pending.length) await this.closeFile(file);
  }

  /**
   * After a failed batch the file is cut back to where the batch began, whatever failed: a refused line must not
   * come back at the next start. A file that cannot be trusted any more (its fsync failed, it was deleted, the cut
   * failed, or the batch held its session line) is retired, and lines queued behind the batch are refused with it;
   * the agent's next line opens a new file. When the cut fails, the bytes are written off in void.jsonl.
   */
  private async rollBack(file: JournalFile, start: number, length: number, error: unknown): Promise<void> {
    let cut = file.fd !== undefined;
    if (file.fd !== undefined) await this.disk.truncate(file.fd, start).catch(() => (cut = false));
    if (cut && start > 0 && (error as NodeJS.ErrnoException).syscall === 'write') return;
    if (!cut && file.path !== undefined) {
      const problem = await this.voids.add(file.path, start, start + length);
      if (problem) this.options.log.error(`journal: ${problem}`);
    }
    if (start === 0 && file.path !== undefined) {
      // an empty or vanished file is skipped by replay anyway
      await rm(file.path, { force: true }).catch(() => undefined);
    }
    const queued = file.waiters.splice(0);
    file.pending = [];
    this.dirty.delete(file);
    const reason = new Unavailable(
      `the journal file ${file.path ?? `of ${file.agentId}`} failed under an earlier write; send again (a new file is opened)`,
    );
    for (const waiter of queued) waiter.reject(reason);
    this.retire(file);
  }

  /** The error an append is refused with (Unavailable, 503), recorded as the journal's problem. */
  private failed(error: unknown, what: string): Unavailable {
    const detail = error instanceof Unavailable ? error.message : `${what}: ${(error as Error).message}`;
    const code = (error as NodeJS.ErrnoException).code;
    const advice =
      code === 'ENOSPC' || code === 'EDQUOT'
        ? '; free disk space: nothing acknowledged was lost, and writes work again by themselves'
        : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
          ? '; make the data dir writable again'
          : '';
    const message = `journal: ${detail}${advice}`;
    if (this.state.problem !== message) {
      this.state = { ok: false, problem: message, since: this.state.since ?? new Date().toISOString() };
      this.options.log.error(message);
      for (const listener of this.healthListeners) listener(this.health());
    }
    return error instanceof Unavailable ? error : new Unavailable(message);
  }

  private healthy(): void {
    if (this.state.ok) return;
    this.state = { ok: true };
    this.options.log.warn('journal: writing to disk works again');
    for (const listener of this.healthListeners) listener(this.health());
  }

  /** The files currently written to, by agent (for tests and status); undefined while the file is being made. */
  currentFile(agentId: string): string | undefined {
    return this.files.get(agentId)?.path;
  }

  /**
   * Stops taking lines; resolves once every line already taken is written and fsynced (or refused) and every file
   * is closed. The bridge calls it after the server stopped taking requests.
   */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing) await this.flushing;
    await Promise.all([...this.files.values(), ...this.retiring].map((file) => this.closeFile(file)));
    this.files.clear();
    this.retiring.clear();
  }
}
