import type { LogEntry, NetworkEntry, PageErrorEntry } from '../protocol/index.js';
import { Unavailable } from '../errors.js';
import type { LimitCounters } from '../limits.js';

/** The newest `capacity` entries, oldest first, each with its size in bytes (as JSON). */
export class Ring<T> {
  private items: Array<{ item: T; bytes: number }> = [];
  private head = 0;
  /** bytes of the entries held */
  bytes = 0;
  constructor(readonly capacity: number) {}

  /** Adds an entry, pushing out the oldest when full. */
  push(item: T, bytes: number): void {
    this.items.push({ item, bytes });
    this.bytes += bytes;
    if (this.length > this.capacity) this.shift();
  }

  /** Drops the oldest entry; returns its bytes (0 when empty). */
  shift(): number {
    const oldest = this.items[this.head];
    if (!oldest) return 0;
    this.head++;
    // compact now and then, so dropping from the front stays cheap
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.bytes -= oldest.bytes;
    return oldest.bytes;
  }

  toArray(): T[] {
    return this.items.slice(this.head).map((e) => e.item);
  }

  get length(): number {
    return this.items.length - this.head;
  }
}

export interface PageWatch {
  logs: Ring<LogEntry>;
  network: Ring<NetworkEntry>;
  errors: Ring<PageErrorEntry>;
}

type Kind = 'logs' | 'network' | 'errors';

/**
 * Console, network and error records per page, kept on the bridge so agents can read them after the page
 * reloaded, changed route or closed (until the page is forgotten after the TTL). Bounded three ways: entries
 * per ring, bytes per page (the oldest records give way, counted) and bytes for all pages (new records are
 * refused with a 503 while the total is full, counted).
 */
export class PageBuffers {
  private readonly byPage = new Map<string, PageWatch>();
  private total = 0;

  constructor(
    private readonly counters: LimitCounters,
    private readonly capacity = 1000,
  ) {
    counters.current('bufferBytesTotal', () => this.total);
  }

  private get limits() {
    return this.counters.limits;
  }

  for(pageId: string): PageWatch {
    let watch = this.byPage.get(pageId);
    if (!watch) {
      watch = {
        logs: new Ring(this.capacity),
        network: new Ring(this.capacity),
        errors: new Ring(this.capacity),
      };
      this.byPage.set(pageId, watch);
    }
    return watch;
  }

  /**
   * Throws a 503 when `bytes` more records of this page would push all pages past their byte budget. A page
   * already at its own budget makes room within it, so it is not refused.
   */
  admit(pageId: string, bytes: number): void {
    const watch = this.byPage.get(pageId);
    const held = watch ? bytesOf(watch) : 0;
    const growth = Math.max(0, Math.min(held + bytes, this.limits.bufferBytesPerPage) - held);
    if (this.total + growth <= this.limits.bufferBytesTotal) return;
    this.counters.refused('bufferBytesTotal');
    throw new Unavailable(
      `the bridge holds ${mib(this.total)} of page records, its limit for all pages (bufferBytesTotal ${mib(this.limits.bufferBytesTotal)}); records of closed pages go after the TTL — log less, or close pages you no longer need`,
    );
  }

  /** Keeps one record, then trims this page's oldest records down to its byte budget. */
  record<K extends Kind>(pageId: string, kind: K, entry: PageWatch[K] extends Ring<infer T> ? T : never): void {
    const watch = this.for(pageId);
    const before = bytesOf(watch);
    (watch[kind] as Ring<typeof entry>).push(entry, JSON.stringify(entry).length);
    let trimmed = 0;
    while (bytesOf(watch) > this.limits.bufferBytesPerPage) {
      const fullest = [watch.logs, watch.network, watch.errors].reduce<Ring<unknown>>(
        (a, b) => (b.bytes > a.bytes ? b : a),
        watch.logs,
      );
      if (!fullest.length) break;
      fullest.shift();
      trimmed++;
    }
    this.total += bytesOf(watch) - before;
    if (trimmed) this.counters.refused('bufferBytesPerPage', trimmed);
  }

  peek(pageId: string): PageWatch | undefined {
    return this.byPage.get(pageId);
  }

  drop(pageId: string): void {
    const watch = this.byPage.get(pageId);
    if (!watch) return;
    this.total -= bytesOf(watch);
    this.byPage.delete(pageId);
  }
}

function bytesOf(watch: PageWatch): number {
  return watch.logs.bytes + watch.network.bytes + watch.errors.bytes;
}

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
