import type { Json, PageEventType } from '../protocol/index.js';

export interface PageEvent {
  pageId: string;
  frameId?: string;
  type: PageEventType;
  payload: Json;
}

/** Page events after validation: the buffers, the inbox subscriptions and the picker listen here. */
export class PageEventBus {
  private readonly listeners = new Set<(event: PageEvent) => void>();

  on(listener: (event: PageEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: PageEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
