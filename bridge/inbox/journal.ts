import { randomUUID } from 'node:crypto';
import { closeSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import { basename, join } from 'node:path';
import { JOURNAL_MAX_BYTES, JournalLine, type Message } from '../protocol/index.js';
import type { Logger } from '../log.js';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files.js';
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
}

interface JournalFile {
  path: string;
  fd: number;
  size: number;
  /** UTC day of the file, YYYY-MM-DD */
  day: string;
  /** lines appended since the last flush, written by it in one go */
  pending: string[];
}

/**
 * The append-only JSONL journal (README "Inbox, push and the journal"): `<dir>/<agent dir>/<ISO-time>_<uuid>.jsonl`
 * (the agent dir is the id, or its encoding: journal-names.ts), a `session` line first, then `message` and
 * `status_change` lines. A new file per (agentId, UTC day), past maxBytes, and per bridge run.
 *
 * Durability is a group commit: `append` queues its line (file order is call order) and resolves after the next
 * flush has written and fsynced that file; the appends of one turn of the event loop, and all that arrive while
 * one fsync runs, share one write and one fsync (a write per line cost an HTTP push ~20 µs of its ~170).
 */
export class Journal {
  private readonly files = new Map<string, JournalFile>();
  /** newest file time per agent, so file names sort in writing order even when the clock stands still */
  private readonly lastStamp = new Map<string, number>();
  private readonly dirty = new Set<JournalFile>();
  private readonly retired = new Set<JournalFile>();
  /** the files replay read, by the index a replayed message's body points at */
  private readonly replayed: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private flushing = false;
  private closed = false;
  private readonly now: () => Date;
  private readonly maxBytes: number;

  constructor(private readonly options: JournalOptions) {
    this.now = options.now ?? (() => new Date());
    this.maxBytes = options.maxBytes ?? JOURNAL_MAX_BYTES;
    mkdirSync(options.dir, { recursive: true, mode: PRIVATE_DIR });
  }

  /** Appends one line to the agent's current file; resolves once it is on disk. */
  append(agentId: string, line: JournalLine): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the journal is closed (the bridge is stopping)'));
    try {
      const text = JSON.stringify(line) + '\n';
      const bytes = Buffer.byteLength(text);
      const file = this.fileFor(agentId, bytes);
      this.write(file, text, bytes);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return new Promise((resolve, reject) => {
      this.waiters.push({ resolve, reject });
      if (!this.flushing) void this.flush();
    });
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
  }

  private fileFor(agentId: string, bytes: number): JournalFile {
    const now = this.now();
    const day = now.toISOString().slice(0, 10);
    const current = this.files.get(agentId);
    if (current && current.day === day && (current.size + bytes <= this.maxBytes || current.size === 0)) return current;
    if (current) this.retire(current);
    const file = this.open(agentId, now, day);
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
    mkdirSync(agentDir, { recursive: true, mode: PRIVATE_DIR });
    const stamp = Math.max(now.getTime(), (this.lastStamp.get(agentId) ?? 0) + 1);
    this.lastStamp.set(agentId, stamp);
    // ':' is not allowed in Windows file names, so the time reads 2026-11-30T18-27-32.123Z
    const name = `${new Date(stamp).toISOString().replace(/:/g, '-')}_${randomUUID()}.jsonl`;
    const path = join(agentDir, name);
    const fd = openSync(path, 'a', PRIVATE_FILE);
    syncDir(agentDir);
    syncDir(this.options.dir);
    return { path, fd, size: 0, day, pending: [] };
  }

  private write(file: JournalFile, text: string, bytes: number): void {
    file.pending.push(text);
    file.size += bytes;
    this.dirty.add(file);
  }

  /** Writes the file's queued lines, in order, in one go. */
  private writePending(file: JournalFile): void {
    if (!file.pending.length) return;
    const buffer = Buffer.from(file.pending.length === 1 ? (file.pending[0] ?? '') : file.pending.join(''));
    file.pending = [];
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(file.fd, buffer, offset);
  }

  /** A file that will get no more lines: closed after its last write and fsync. */
  private retire(file: JournalFile): void {
    // a flush may be syncing it right now: closing it under the fsync would fail that batch
    if (this.flushing || this.dirty.has(file)) this.retired.add(file);
    else closeSync(file.fd);
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    // the appends of this turn of the event loop (a burst of requests) share the first write and fsync
    await new Promise((resolve) => setImmediate(resolve));
    while (this.waiters.length) {
      const waiters = this.waiters;
      this.waiters = [];
      const files = [...this.dirty];
      this.dirty.clear();
      try {
        for (const file of files) this.writePending(file);
        await Promise.all(files.map((file) => fsyncAsync(file.fd)));
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        if (this.closed) {
          // close() synced and closed every file under this fsync: the lines are on disk.
          for (const waiter of waiters) waiter.resolve();
          continue;
        }
        const reason = new Error(`journal: could not write to disk: ${(error as Error).message}`);
        for (const waiter of waiters) waiter.reject(reason);
      }
      for (const file of this.retired) {
        if (!this.dirty.has(file)) {
          this.retired.delete(file);
          closeSync(file.fd);
        }
      }
    }
    this.flushing = false;
  }

  /** The files currently written to, by agent (for tests and status). */
  currentFile(agentId: string): string | undefined {
    return this.files.get(agentId)?.path;
  }

  close(): void {
    this.closed = true;
    for (const file of [...this.files.values(), ...this.retired]) {
      try {
        this.writePending(file);
        fsyncSync(file.fd);
        closeSync(file.fd);
      } catch {
        // already closed
      }
    }
    this.files.clear();
    this.retired.clear();
  }
}

function fsyncAsync(fd: number): Promise<void> {
  return new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(error) : resolve())));
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
