import type { Json, PageEventType } from '../protocol/index.js';

export interface PageEvent {
  pageId: string;
  frameId?: string;
  type: PageEventType;
  payload: Json;
}

/**
 * Why a page event went nowhere: its page is held (its origin waits for the human), or it connected without a
 * secret (legacy), which keeps it out of agents' inboxes and the editor.
 */
export type DropReason = 'held' | 'legacy';

/** Page events after validation: the buffers, the inbox subscriptions and the picker listen here. */
export class PageEventBus {
  private readonly listeners = new Set<(event: PageEvent) => void>();
  private readonly drops: Record<DropReason, Partial<Record<PageEventType, number>>> = { held: {}, legacy: {} };

  on(listener: (event: PageEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: PageEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /** Counts an event that was not passed on (bridge_status shows the counts). */
  drop(reason: DropReason, type: PageEventType): void {
    const counts = this.drops[reason];
    counts[type] = (counts[type] ?? 0) + 1;
  }

  dropped(): Record<DropReason, Partial<Record<PageEventType, number>>> {
    return { held: { ...this.drops.held }, legacy: { ...this.drops.legacy } };
  }
}
