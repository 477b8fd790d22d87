import type { LogEntry, NetworkEntry, PageErrorEntry } from '../protocol/index.js';

/** A fixed-size ring: the newest `capacity` entries, oldest first. */
export class Ring<T> {
  private readonly items: T[] = [];
  private start = 0;
  constructor(readonly capacity: number) {}

  push(item: T): void {
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      this.items[this.start] = item;
      this.start = (this.start + 1) % this.capacity;
    }
  }

  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  get length(): number {
    return this.items.length;
  }
}

export interface PageWatch {
  logs: Ring<LogEntry>;
  network: Ring<NetworkEntry>;
  errors: Ring<PageErrorEntry>;
}

/**
 * Console, network and error records per page, kept on the bridge so agents can read them after the page
 * reloaded, changed route or closed (until the page is forgotten after the TTL).
 */
export class PageBuffers {
  private readonly byPage = new Map<string, PageWatch>();
  constructor(private readonly capacity = 1000) {}

  for(pageId: string): PageWatch {
    let watch = this.byPage.get(pageId);
    if (!watch) {
      watch = { logs: new Ring(this.capacity), network: new Ring(this.capacity), errors: new Ring(this.capacity) };
      this.byPage.set(pageId, watch);
    }
    return watch;
  }

  peek(pageId: string): PageWatch | undefined {
    return this.byPage.get(pageId);
  }

  drop(pageId: string): void {
    this.byPage.delete(pageId);
  }
}
