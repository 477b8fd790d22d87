import { randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, unlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { JOURNAL_MAX_BYTES, JournalLine, type Message } from '../protocol/index.js';
import { Unavailable } from '../errors.js';
import type { Logger } from '../log.js';
import { PRIVATE_DIR } from '../private-files.js';
import { nodeDisk, type JournalDisk } from './disk.js';
import { agentDirName, agentJournals } from './journal-names.js';
import {
  dirAgent,
  lineHeads,
  scanMessage,
  scanStatusChange,
  type LineHead,
  type ReplayVisitor,
  type StatusHead,
} from './journal-scan.js';

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
  path: string;
  fd: number;
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
 * The append-only JSONL journal (README "Inbox, push and the journal"): `<dir>/<agent dir>/<ISO-time>_<uuid>.jsonl`
 * (the agent dir is the id, or its encoding: journal-names.ts), a `session` line first, then `message` and
 * `status_change` lines. A new file per (agentId, UTC day), past maxBytes, and per bridge run.
 *
 * Durability is a group commit: `append` queues its line (file order is call order) and resolves after the next
 * flush has written and fsynced that file; the appends of one turn of the event loop, and all that arrive while
 * one fsync runs, share one write and one fsync per file (a write per line cost an HTTP push ~20 µs of its ~170).
 *
 * A batch that fails (disk full, an fsync error, the file deleted under the bridge) rejects its appends with
 * Unavailable and leaves no fragment: the file is cut back to where the batch began, or retired when that cannot be
 * trusted, so every line starts on a line boundary and a later batch is read whole. After each fsync the file must
 * still have a name: a file whose folder was deleted takes writes into nowhere.
 */
export class Journal {
  private readonly files = new Map<string, JournalFile>();
  /** newest file time per agent, so file names sort in writing order even when the clock stands still */
  private readonly lastStamp = new Map<string, number>();
  private readonly dirty = new Set<JournalFile>();
  /** files that get no more lines but still have a batch in flight or queued */
  private readonly retiring = new Set<JournalFile>();
  /** the files replay read, by the index a replayed message's body points at */
  private readonly replayed: string[] = [];
  private flushing = false;
  private closed = false;
  private readonly now: () => Date;
  private readonly maxBytes: number;
  private readonly disk: JournalDisk;
  private state: JournalHealth = { ok: true };
  private readonly healthListeners = new Set<(health: JournalHealth) => void>();

  constructor(private readonly options: JournalOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
    this.disk = options.disk ?? nodeDisk;
    mkdirSync(options.dir, { recursive: true, mode: PRIVATE_DIR });
  }

  /** Appends one line to the agent's current file; resolves once it is on disk, rejects (Unavailable) if it cannot be. */
  append(agentId: string, line: JournalLine): Promise<void> {
    if (this.closed) return Promise.reject(new Unavailable('the journal is closed (the bridge is stopping)'));
    let file: JournalFile;
    try {
      const text = JSON.stringify(line) + '\n';
      const bytes = Buffer.byteLength(text);
      file = this.fileFor(agentId, bytes);
      this.write(file, text, bytes);
    } catch (error) {
      return Promise.reject(this.failed(error, `cannot open a journal file for ${agentId}`));
    }
    return new Promise((resolve, reject) => {
      file.waiters.push({ resolve, reject });
      if (!this.flushing) void this.flush();
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

  /**
   * Reads every journal, oldest file first, and hands each line to the visitor in file order. Lines in the exact
   * form this bridge writes are read by their head only (journal-scan.ts): a message's body stays on disk for
   * readMessage. Any other line is parsed whole and checked against the schema; a torn or corrupt line is skipped
   * with a warning naming file and line, and the lines after it still replay.
   */
  replay(visitor: ReplayVisitor): void {
    // the scratch objects every line's head is read into: locals, so no file's bytes stay reachable after replay
    const { head, change } = lineHeads();
    for (const { agentId, files } of agentJournals(this.options.dir, this.options.log)) {
      for (const path of files) {
        const name = basename(path);
        const stamp = Date.parse(name.slice(0, name.indexOf('_')).replace(/T(\d\d)-(\d\d)-/, 'T$1:$2:'));
        if (Number.isFinite(stamp)) this.lastStamp.set(agentId, Math.max(stamp, this.lastStamp.get(agentId) ?? 0));
        this.replayFile(path, agentId, visitor, head, change);
      }
    }
  }

  /**
   * The message of a replayed line whose body was left on disk, read and checked against the schema now; a string
   * says why it cannot be read (the file went away or the line is damaged inside), and the log says it too.
   */
  readMessage(id: string, file: number, start: number, end: number): Message | string {
    const read = this.readLine(id, file, start, end);
    if (typeof read === 'string') this.options.log.warn(`journal: message ${id}: ${read}`);
    return read;
  }

  private readLine(id: string, file: number, start: number, end: number): Message | string {
    const path = this.replayed[file];
    if (path === undefined) return `no journal file #${file}`;
    const where = `line at bytes ${start}-${end} of ${path}`;
    const buffer = Buffer.alloc(end - start);
    try {
      const fd = openSync(path, 'r');
      try {
        let read = 0;
        while (read < buffer.length) {
          const n = readSync(fd, buffer, read, buffer.length - read, start + read);
          if (n === 0) break;
          read += n;
        }
        if (read < buffer.length) return `${where}: the file is shorter than when the bridge started`;
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      return `${where}: ${(error as Error).message}`;
    }
    let parsed: ReturnType<typeof JournalLine.safeParse> | undefined;
    try {
      parsed = JournalLine.safeParse(JSON.parse(buffer.toString('utf8')));
    } catch {
      // reported below
    }
    if (!parsed?.success || parsed.data.type !== 'message' || parsed.data.message.id !== id)
      return `${where} is damaged (not the JSON message line ${id} it was at start)`;
    return parsed.data.message;
  }

  private replayFile(path: string, agentId: string, visitor: ReplayVisitor, head: LineHead, change: StatusHead): void {
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (error) {
      this.options.log.warn(`journal: cannot read ${path}: ${(error as Error).message}; skipped`);
      return;
    }
    const file = this.replayed.push(path) - 1;
    const agent = dirAgent(agentId);
    let lineNumber = 0;
    for (let start = 0; start < buf.length;) {
      const newline = buf.indexOf(0x0a, start);
      const end = newline < 0 ? buf.length : newline;
      lineNumber++;
      if (scanMessage(buf, start, end, agent, head)) visitor.head(head, file);
      else {
        if (scanStatusChange(buf, start, end, change)) visitor.statusHead(change);
        else this.replaySlow(buf.toString('utf8', start, end), visitor, newline < 0, lineNumber, path);
      }
      start = end + 1;
    }
  }

  /** A line in another form than this bridge writes (or damaged): parsed whole and checked with the schema. */
  private replaySlow(raw: string, visitor: ReplayVisitor, last: boolean, lineNumber: number, path: string): void {
    if (!raw.trim()) return;
    let parsed: JournalLine | undefined;
    try {
      const result = JournalLine.safeParse(JSON.parse(raw));
      if (result.success) parsed = result.data;
    } catch {
      // reported below
    }
    if (!parsed) {
      this.options.log.warn(
        `journal: ${last ? 'torn last line' : 'unreadable line'} ${lineNumber} of ${path} skipped` +
          (last ? ' (the bridge stopped while writing it)' : ''),
      );
      return;
    }
    if (parsed.type === 'message') visitor.message(parsed.message);
    else if (parsed.type === 'status_change') visitor.statusChange(parsed.id, parsed.status, parsed.at);
    else if (parsed.type === 'renamed') visitor.renamed(parsed.from, parsed.to, parsed.at);
    else if (parsed.type === 'ask_opened') visitor.askOpened(parsed.ask);
    else if (parsed.type === 'ask_countdown')
      visitor.askCountdown(parsed.askId, { paused: parsed.paused, remainingMs: parsed.remainingMs, at: parsed.at });
  }

  private fileFor(agentId: string, bytes: number): JournalFile {
    const now = this.now();
    const day = now.toISOString().slice(0, 10);
    const current = this.files.get(agentId);
    // a current file is never empty (its session line comes first), so a line bigger than maxBytes gets a file alone
    if (current && current.day === day && current.size + bytes <= this.maxBytes) return current;
    const file = this.open(agentId, now, day);
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

  private open(agentId: string, now: Date, day: string): JournalFile {
    // never the id itself as a path: "..", "CON" and "a:b" are ids too (journal-names.ts)
    const agentDir = join(this.options.dir, agentDirName(agentId));
    try {
      // not recursive: a journal folder that was deleted is not silently made again under a new data dir
      mkdirSync(agentDir, { mode: PRIVATE_DIR });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Unavailable(
          `the journal folder ${this.options.dir} is gone (was the data dir deleted or moved?); nothing more can be kept — restart the bridge`,
        );
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const stamp = Math.max(now.getTime(), (this.lastStamp.get(agentId) ?? 0) + 1);
    this.lastStamp.set(agentId, stamp);
    // ':' is not allowed in Windows file names, so the time reads 2026-11-30T18-27-32.123Z
    const name = `${new Date(stamp).toISOString().replace(/:/g, '-')}_${randomUUID()}.jsonl`;
    const path = join(agentDir, name);
    const fd = this.disk.open(path);
    syncDir(agentDir);
    syncDir(this.options.dir);
    return {
      agentId,
      path,
      fd,
      committed: 0,
      size: 0,
      day,
      pending: [],
      waiters: [],
      busy: false,
      retired: false,
      closed: false,
    };
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
    else this.closeFile(file);
  }

  private closeFile(file: JournalFile): void {
    this.retiring.delete(file);
    // once only: a second close could hit another file that got the same descriptor number
    if (file.closed) return;
    file.closed = true;
    try {
      this.disk.close(file.fd);
    } catch {
      // already closed
    }
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    // the appends of this turn of the event loop (a burst of requests) share the first write and fsync
    await new Promise((resolve) => setImmediate(resolve));
    while (this.dirty.size) {
      const files = [...this.dirty];
      this.dirty.clear();
      await Promise.all(files.map((file) => this.commit(file)));
    }
    this.flushing = false;
  }

  /** Writes the file's queued lines in one go and fsyncs them; on any failure the file holds none of them. */
  private async commit(file: JournalFile): Promise<void> {
    const waiters = file.waiters.splice(0);
    const buffer = Buffer.from(file.pending.join(''));
    file.pending = [];
    const start = file.committed;
    file.busy = true;
    try {
      for (let offset = 0; offset < buffer.length;) offset += this.disk.write(file.fd, buffer, offset);
      await this.disk.sync(file.fd);
      if (!this.disk.linked(file.fd))
        throw new Unavailable(
          `the journal file ${file.path} was deleted while the bridge wrote to it (was the data dir removed?); what it took since is lost`,
        );
      file.committed = start + buffer.length;
      file.busy = false;
      this.healthy();
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      file.busy = false;
      if (this.closed) {
        // close() synced and closed every file under this fsync: the lines are on disk
        for (const waiter of waiters) waiter.resolve();
        return;
      }
      file.size -= buffer.length;
      const reason = this.failed(error, `could not write to ${file.path}`);
      this.rollBack(file, start, error);
      for (const waiter of waiters) waiter.reject(reason);
    }
    if (file.retired && !file.pending.length) this.closeFile(file);
  }

  /**
   * After a failed batch the file is cut back to where the batch began, whatever failed: a refused line must not
   * come back at the next start. A file that cannot be trusted any more (its fsync failed, it was deleted, the cut
   * failed, or the batch held its session line) is retired, and lines queued behind the batch are refused with it;
   * the agent's next line opens a new file.
   */
  private rollBack(file: JournalFile, start: number, error: unknown): void {
    let cut = true;
    try {
      this.disk.truncate(file.fd, start);
    } catch {
      cut = false;
    }
    if (cut && start > 0 && (error as NodeJS.ErrnoException).syscall === 'write') return;
    if (start === 0) {
      try {
        unlinkSync(file.path);
      } catch {
        // an empty or vanished file is skipped by replay anyway
      }
    }
    const queued = file.waiters.splice(0);
    file.pending = [];
    this.dirty.delete(file);
    const reason = new Unavailable(
      `the journal file ${file.path} failed under an earlier write; send again (a new file is opened)`,
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

  /** The files currently written to, by agent (for tests and status). */
  currentFile(agentId: string): string | undefined {
    return this.files.get(agentId)?.path;
  }

  close(): void {
    this.closed = true;
    for (const file of [...this.files.values(), ...this.retiring]) {
      const waiters = file.waiters.splice(0);
      try {
        if (file.pending.length) {
          const buffer = Buffer.from(file.pending.join(''));
          file.pending = [];
          for (let offset = 0; offset < buffer.length;) offset += this.disk.write(file.fd, buffer, offset);
        }
        if (!file.closed) fsyncSync(file.fd);
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        const reason = this.failed(error, `could not write to ${file.path} while stopping`);
        for (const waiter of waiters) waiter.reject(reason);
      }
      this.closeFile(file);
    }
    this.files.clear();
    this.retiring.clear();
    // every queued line was written above: a flush that wakes up after this has nothing to write
    this.dirty.clear();
  }
}

/** Makes a new file's directory entry durable too; not possible on every platform, so best effort. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Windows cannot open a directory
  }
}
