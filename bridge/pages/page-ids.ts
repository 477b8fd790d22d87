import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Unavailable } from '../errors.js';
import { replacePrivateFile } from '../private-files.js';
import { sameSecret } from '../token.js';

interface Known {
  pageId: string;
  /** sha256 of the page's secret; absent for a page that connected without one (it cannot be claimed back) */
  secretHash?: string;
}

/** What the bridge remembers of an instance id offered at claim. */
export type Recognized =
  | { kind: 'unknown' }
  | { kind: 'legacy'; pageId: string }
  | { kind: 'mismatch'; pageId: string }
  | { kind: 'match'; pageId: string };

/** past this many lines the file is rewritten at start with the newest KEPT entries */
const COMPACT_AT = 20_000;
const KEPT = 5_000;

/**
 * Every pageId this bridge handed out, with the instance id that got it and a hash of its secret, in
 * `<appDir>/page-ids.jsonl` (0600, one line per new page, fsynced before its claim is answered). So a page
 * that reconnects after a restart with its instance id and secret gets its pageId back, whatever order the
 * pages come back in, and no number is handed out twice: an agent holding `p2` never drives another page.
 */
export class PageIds {
  private readonly byInstance = new Map<string, Known>();
  private next = 1;
  private file?: Promise<FileHandle>;
  /** the file's length after the last write that reached the disk: a failed write is cut back to it */
  private size = 0;
  /** lines issued and not yet being written; one write and one fsync take them all (a claim flood shares them) */
  private batch: string[] | undefined;
  private written: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // no page yet
    }
    const lines = text.split('\n');
    for (const line of lines) this.read(line);
    if (lines.length > COMPACT_AT) this.compact();
    this.size = sizeOf(path);
  }

  private read(line: string): void {
    if (!line.trim()) return;
    let entry: { instanceId?: unknown; pageId?: unknown; secretHash?: unknown; next?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return; // a torn last line (a crash mid-append): that claim was never answered
    }
    if (typeof entry.next === 'number') this.next = Math.max(this.next, entry.next);
    if (typeof entry.instanceId !== 'string' || typeof entry.pageId !== 'string') return;
    const number = /^p(\d+)$/.exec(entry.pageId)?.[1];
    if (number) this.next = Math.max(this.next, Number(number) + 1);
    this.byInstance.delete(entry.instanceId);
    this.byInstance.set(entry.instanceId, {
      pageId: entry.pageId,
      ...(typeof entry.secretHash === 'string' ? { secretHash: entry.secretHash } : {}),
    });
  }

  /** Whether `instanceId` had a page before, and whether `secret` proves it is that page. */
  recognize(instanceId: string, secret: string | undefined): Recognized {
    const known = this.byInstance.get(instanceId);
    if (!known) return { kind: 'unknown' };
    if (!known.secretHash) return { kind: 'legacy', pageId: known.pageId };
    const match = secret !== undefined && sameSecret(known.secretHash, hashOf(secret));
    return { kind: match ? 'match' : 'mismatch', pageId: known.pageId };
  }

  /**
   * A new pageId for this instance. It is on disk once `recorded` resolves, which a claim awaits before it
   * answers; until then nobody outside the bridge has seen it. `recorded` rejects (Unavailable) when it could
   * not be written.
   */
  issue(instanceId: string, secret: string | undefined): { pageId: string; recorded: Promise<void> } {
    const pageId = `p${this.next++}`;
    const entry: Known = { pageId, ...(secret !== undefined ? { secretHash: hashOf(secret) } : {}) };
    this.byInstance.set(instanceId, entry);
    return { pageId, recorded: this.queue(JSON.stringify({ instanceId, ...entry }) + '\n') };
  }

  private queue(line: string): Promise<void> {
    if (this.batch) {
      this.batch.push(line);
      return this.written;
    }
    const batch = [line];
    this.batch = batch;
    this.written = this.written
      .catch(() => undefined)
      .then(() => {
        this.batch = undefined;
        return this.write(batch.join(''));
      });
    return this.written;
  }

  private async write(text: string): Promise<void> {
    let handle: FileHandle | undefined;
    try {
      this.file ??= open(this.path, 'a', 0o600);
      handle = await this.file;
      // writeFile writes until all is written (or throws): one write can stop short on a full disk
      await handle.writeFile(text);
      await handle.sync();
      this.size += Buffer.byteLength(text);
    } catch (error) {
      // every line must start on a line boundary: a torn write is cut off, so the next one is read whole
      await handle?.truncate(this.size).catch(() => undefined);
      throw new Unavailable(
        `cannot record a new page id in ${this.path}: ${(error as Error).message}; free space or fix the data dir, then reload the page`,
      );
    }
  }

  /** Keeps the newest entries and the next number (an old page coming back after that gets a new id). */
  private compact(): void {
    const kept = [...this.byInstance].slice(-KEPT);
    const text = [
      JSON.stringify({ next: this.next }),
      ...kept.map(([instanceId, known]) => JSON.stringify({ instanceId, ...known })),
      '',
    ].join('\n');
    try {
      replacePrivateFile(this.path, text);
      this.byInstance.clear();
      for (const [instanceId, known] of kept) this.byInstance.set(instanceId, known);
    } catch {
      // the long file still reads the same; compaction is tried again at the next start
    }
  }

  /** Forgets an id whose claim could not be recorded (its number is not handed out again in this run). */
  drop(instanceId: string): void {
    this.byInstance.delete(instanceId);
  }

  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await this.written.catch(() => undefined);
    await (await file?.catch(() => undefined))?.close().catch(() => undefined);
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
