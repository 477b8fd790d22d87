import type { AgentView } from '../protocol/index.js';
import type { PageRegistry } from '../pages/registry.js';
import type { HumanHub } from './hub.js';

export interface WindowFeedOptions {
  hub: HumanHub;
  pages: PageRegistry;
  /** the agents list as the window shows it */
  agents: () => AgentView[];
  /** at most one pages and one agents update per this many ms */
  coalesceMs: number;
}

/**
 * Pages and agents updates for the window, coalesced: changes are gathered and sent at most once per
 * `coalesceMs`, pages as a delta (the rows of the pages that changed, the ids of those forgotten). A claim flood
 * then costs the window a few small events a second instead of the whole list per claim.
 */
export class WindowFeed {
  private readonly dirtyPages = new Set<string>();
  private agentsDirty = false;
  private timer?: NodeJS.Timeout;
  private lastFlush = 0;

  constructor(private readonly options: WindowFeedOptions) {}

  pageChanged(pageId: string): void {
    this.dirtyPages.add(pageId);
    this.schedule();
  }

  agentsChanged(): void {
    this.agentsDirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    // the first change after a quiet spell goes out at once; later ones wait for the next slot
    const wait = Math.max(0, this.lastFlush + this.options.coalesceMs - Date.now());
    this.timer = setTimeout(() => this.flush(), wait);
  }

  /** Sends what changed since the last update. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlush = Date.now();
    const { hub, pages } = this.options;
    if (this.dirtyPages.size) {
      const upsert = [];
      const gone = [];
      for (const pageId of this.dirtyPages) {
        const page = pages.get(pageId);
        if (page) upsert.push(...pages.rowsOf(page));
        else gone.push(pageId);
      }
      this.dirtyPages.clear();
      hub.broadcast('pages', { upsert, gone, heldOrigins: pages.heldOrigins() });
    }
    if (this.agentsDirty) {
      this.agentsDirty = false;
      hub.broadcast('agents', { agents: this.options.agents() });
    }
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
