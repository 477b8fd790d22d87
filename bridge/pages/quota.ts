import { TooMany, Unavailable } from '../errors.js';
import type { LimitCounters } from '../limits.js';

/** What the quota needs to know of a page. */
export interface QuotaPage {
  pageId: string;
  origin: string;
}

export interface PageQuotaOptions<P extends QuotaPage> {
  counters: LimitCounters;
  /** a page with an open stream is never forgotten to make room */
  isConnected(page: P): boolean;
  /** forgets a closed page at once (its records go with it) */
  forget(page: P): void;
}

/**
 * How many pages each origin holds, and the room left (limits.pagesPerOrigin, heldPagesPerOrigin, pagesTotal,
 * pageStreams). A new page of a full loopback or allowed origin takes the place of that origin's oldest closed
 * page (a test run opening a tab per test keeps working); a full held origin, or one whose pages are all open, is
 * refused with a 429; all pages together at their limit is a 503. Each message says what to do. Indexed by
 * origin, so no check walks every page.
 */
export class PageQuota<P extends QuotaPage> {
  private readonly byOrigin = new Map<string, Set<P>>();
  /** every page, oldest first */
  private readonly all = new Set<P>();
  /** page command streams open now */
  openStreams = 0;

  constructor(private readonly options: PageQuotaOptions<P>) {
    options.counters.current('pagesTotal', () => this.all.size);
    options.counters.current('pageStreams', () => this.openStreams);
  }

  private get limits() {
    return this.options.counters.limits;
  }

  /** Makes room for one more page of this origin, or throws a 429. */
  admit(origin: string, held: boolean): void {
    const limit = held ? this.limits.heldPagesPerOrigin : this.limits.pagesPerOrigin;
    const mine = this.byOrigin.get(origin);
    // held pages make no room: nobody approved that origin, so its flood is refused rather than churned
    if (mine && mine.size >= limit && (held || !this.forgetOldestClosed(mine))) {
      this.options.counters.refused('pagesPerOrigin');
      throw new TooMany(
        held
          ? `origin ${origin} already has ${limit} pages waiting for the human's approval (limit heldPagesPerOrigin); allow the origin in the AITI window or close its tabs`
          : `origin ${origin} already has ${limit} pages open (limit pagesPerOrigin); close a tab, or wait for closed pages to be forgotten`,
      );
    }
    // the developer's own origins take the place of the oldest closed page of any origin (pages a flood claimed
    // and never opened must not keep a new dev server out for the whole --ttl; the oldest of all, not of this
    // origin, since this origin's oldest may be a page claimed a moment ago whose stream is still opening); an
    // origin awaiting approval only replaces its own
    const room = () => (held ? !!mine && this.forgetOldestClosed(mine) : this.forgetOldestClosed(this.all));
    if (this.all.size >= this.limits.pagesTotal && !room()) {
      this.options.counters.refused('pagesTotal');
      throw new Unavailable(
        `the bridge already keeps ${this.limits.pagesTotal} pages (limit pagesTotal); close some tabs, or wait for closed pages to be forgotten (--ttl)`,
      );
    }
  }

  added(page: P): void {
    let set = this.byOrigin.get(page.origin);
    if (!set) this.byOrigin.set(page.origin, (set = new Set()));
    set.add(page);
    this.all.add(page);
  }

  removed(page: P, origin = page.origin): void {
    const set = this.byOrigin.get(origin);
    if (!set?.delete(page)) return;
    this.all.delete(page);
    if (!set.size) this.byOrigin.delete(origin);
  }

  /** A re-claim may change a page's origin. */
  moved(page: P, from: string): void {
    if (from === page.origin) return;
    this.removed(page, from);
    this.added(page);
  }

  origins(): string[] {
    return [...this.byOrigin.keys()];
  }

  /** Throws a 503 when no more page streams may open. */
  admitStream(): void {
    if (this.openStreams < this.limits.pageStreams) return;
    this.options.counters.refused('pageStreams');
    throw new Unavailable(
      `the bridge already has ${this.limits.pageStreams} page streams open (limit pageStreams); close some tabs and reload this one`,
    );
  }

  /** Throws a 429 when a page would pass its frame limit. */
  admitFrames(pageId: string, frames: number): void {
    if (frames <= this.limits.framesPerPage) return;
    this.options.counters.refused('framesPerPage');
    throw new TooMany(
      `page ${pageId} would have ${frames} frames; the limit is ${this.limits.framesPerPage} (framesPerPage)`,
      'frameIds',
    );
  }

  private forgetOldestClosed(set: Set<P>): boolean {
    for (const page of set) {
      if (this.options.isConnected(page)) continue;
      this.options.forget(page);
      return true;
    }
    return false;
  }
}
