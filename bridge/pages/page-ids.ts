import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Unavailable } from '../errors.js';
import { appendLine, replaceFile } from '../private-files.js';
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
 * `<appDir>/page-ids.jsonl` (0600, one line per new page, on disk before its claim is answered: claims that meet
 * share one write and one fsync, off the main thread, private-files.ts). So a page that reconnects after a restart
 * with its instance id and secret gets its pageId back, whatever order the pages come back in, and no number is
 * handed out twice: an agent holding `p2` never drives another page.
 */
export class PageIds {
  private readonly byInstance = new Map<string, Known>();
  private next = 1;
  /** the compaction at start: lines are appended only after it */
  private ready: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      return; // no page yet
    }
    const lines = text.split('\n');
    for (const line of lines) this.read(line);
    if (lines.length > COMPACT_AT) this.ready = this.compact();
  }

  private read(line: string): void {
    if (!line.trim()) return;
    let entry: { instanceId?: unknown; pageId?: unknown; secretHash?: unknown; next?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      return; // a torn line (a crash mid-append): that claim was never answered; the next append ends it
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
    const line = JSON.stringify({ instanceId, ...entry }) + '\n';
    const recorded = this.ready.then(() =>
      appendLine(this.path, line).catch((error: unknown) => {
        throw new Unavailable(
          `cannot record a new page id in ${this.path}: ${(error as Error).message}; free space or fix the data dir, then reload the page`,
        );
      }),
    );
    return { pageId, recorded };
  }

  /** Keeps the newest entries and the next number (an old page coming back after that gets a new id). */
  private async compact(): Promise<void> {
    const kept = [...this.byInstance].slice(-KEPT);
    const text = [
      JSON.stringify({ next: this.next }),
      ...kept.map(([instanceId, known]) => JSON.stringify({ instanceId, ...known })),
      '',
    ].join('\n');
    try {
      await replaceFile(this.path, text);
    } catch {
      // the long file still reads the same (or the short one is in place, unconfirmed: it reads the same too);
      // compaction is tried again at the next start
    }
  }

  /** Forgets an id whose claim could not be recorded (its number is not handed out again in this run). */
  drop(instanceId: string): void {
    this.byInstance.delete(instanceId);
  }

  async close(): Promise<void> {
    await this.ready;
  }
}

function hashOf(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
