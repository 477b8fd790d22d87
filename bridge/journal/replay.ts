import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { AskCountdown, JournalLine, pickOf, type Message } from '../protocol/index.js';
import type { Logger } from '../log.js';
import type { AskLines, MessageLines } from './lines.js';
import { agentJournals } from './names.js';
import { dirAgent, lineHeads, scanMessage, scanStatusChange, type LineHead, type StatusHead } from './scan.js';
import { VoidLines, type VoidRange } from './void-lines.js';

/** Who the replay feeds: the inbox its message lines, the asks their own lines (absent: ask lines are skipped). */
export interface JournalReaders {
  messages: MessageLines;
  asks?: AskLines;
}

/** The bodies a replay left on disk, read when a message is read. */
export interface JournalBodies {
  /**
   * The message of a replayed line whose body was left on disk, read and checked against the schema now; a string
   * says why it cannot be read (the file went away or the line is damaged inside), and the log says it too.
   */
  readMessage(id: string, file: number, start: number, end: number): Promise<Message | string>;
}

const IMAGE_ID = Buffer.from('img-', 'latin1');

/**
 * Reads every journal under `dir` once, oldest file first, and hands each line in file order to its owner. Lines
 * in the exact form this bridge writes are read by their head only (scan.ts): a message's body stays on disk for
 * readMessage. Any other line is parsed whole and checked against the schema; a torn or corrupt line is skipped
 * with a warning naming file and line, and the lines after it still replay; bytes void.jsonl writes off are
 * skipped. Synchronous: it runs once, before the bridge serves anything.
 */
export class JournalReplay implements JournalBodies {
  /** the files read, by the index a replayed message's body points at */
  private readonly files: string[] = [];
  /** image ids any line names (images/store.ts collects the others at start) */
  readonly images = new Set<string>();
  /** false when a file could not be read: then nobody can say which images are referenced */
  complete = true;

  constructor(private readonly options: { dir: string; log: Logger }) {}

  run(readers: JournalReaders): this {
    const voids = new VoidLines(this.options.dir).read();
    // the scratch objects every line's head is read into: locals, so no file's bytes stay reachable after replay
    const { head, change } = lineHeads();
    for (const { agentId, files } of agentJournals(this.options.dir, this.options.log))
      for (const path of files) this.replayFile(path, agentId, readers, head, change, voids.get(path));
    return this;
  }

  async readMessage(id: string, file: number, start: number, end: number): Promise<Message | string> {
    const read = await this.readLine(id, file, start, end);
    if (typeof read === 'string') this.options.log.warn(`journal: message ${id}: ${read}`);
    return read;
  }

  private async readLine(id: string, file: number, start: number, end: number): Promise<Message | string> {
    const path = this.files[file];
    if (path === undefined) return `no journal file #${file}`;
    const where = `line at bytes ${start}-${end} of ${path}`;
    const buffer = Buffer.alloc(end - start);
    try {
      const handle = await open(path, 'r');
      try {
        let read = 0;
        while (read < buffer.length) {
          const { bytesRead } = await handle.read(buffer, read, buffer.length - read, start + read);
          if (bytesRead === 0) break;
          read += bytesRead;
        }
        if (read < buffer.length) return `${where}: the file is shorter than when the bridge started`;
      } finally {
        await handle.close();
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

  private replayFile(
    path: string,
    agentId: string,
    readers: JournalReaders,
    head: LineHead,
    change: StatusHead,
    voided: VoidRange[] | undefined,
  ): void {
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch (error) {
      this.options.log.warn(`journal: cannot read ${path}: ${(error as Error).message}; skipped`);
      this.complete = false;
      return;
    }
    const file = this.files.push(path) - 1;
    const agent = dirAgent(agentId);
    this.findImages(buf);
    let lineNumber = 0;
    for (let start = 0; start < buf.length;) {
      const newline = buf.indexOf(0x0a, start);
      const end = newline < 0 ? buf.length : newline;
      lineNumber++;
      if (voided?.some((range) => start >= range.from && start < range.to)) {
        start = end + 1;
        continue;
      }
      if (scanMessage(buf, start, end, agent, head)) readers.messages.head(head, file);
      else if (scanStatusChange(buf, start, end, change)) readers.messages.statusHead(change);
      else this.replaySlow(buf.toString('utf8', start, end), readers, newline < 0, lineNumber, path);
      start = end + 1;
    }
  }

  /** Every `img-<16 hex>` in the file's bytes (an image a message, an answer or a record refers to). */
  private findImages(buf: Buffer): void {
    for (let at = buf.indexOf(IMAGE_ID); at >= 0; at = buf.indexOf(IMAGE_ID, at + IMAGE_ID.length)) {
      const id = buf.toString('latin1', at, at + 20);
      if (/^img-[0-9a-f]{16}$/.test(id)) this.images.add(id);
    }
  }

  /** A line in another form than this bridge writes (or damaged): parsed whole and checked with the schema. */
  private replaySlow(raw: string, readers: JournalReaders, last: boolean, lineNumber: number, path: string): void {
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
    const { messages, asks } = readers;
    if (parsed.type === 'message') messages.message(parsed.message);
    else if (parsed.type === 'status_change') messages.statusChange(parsed.id, parsed.status, parsed.at);
    else if (parsed.type === 'renamed') {
      messages.renamed(parsed.from, parsed.to, parsed.at);
      asks?.renamed(parsed.from, parsed.to, parsed.at);
    } else if (parsed.type === 'ask_opened') asks?.opened(parsed.ask);
    else if (parsed.type === 'ask_countdown') asks?.countdown(pickOf(AskCountdown, parsed));
    else if (parsed.type === 'ask_handed_over') asks?.handedOver(parsed.askId);
  }
}
