import type { AiEvent, AiEventName, AiEvents, StateEvent } from '../protocol/index.js';
import type { z } from 'zod';
import type { EventStream } from '../event-stream.js';

/**
 * Who watches a stream: the desk (the human's token) or a paired device. Both are the human; only the desk is told
 * of devices and agent tokens, since only the desk manages them.
 */
export type Audience = 'desk' | 'device';

/**
 * The human side's live feed: every role=ai stream gets a `state` event first, then the deltas broadcast here.
 * In-process listeners (the desktop shell's tray and notifications) subscribe to the same feed.
 */
export class HumanHub {
  private readonly streams = new Set<EventStream>();
  private readonly desks = new Set<EventStream>();
  private readonly listeners = new Set<(event: AiEvent) => void>();

  constructor(
    private readonly state: () => StateEvent,
    /** what the desk's streams get after `state` (the `devices` event) */
    private readonly deskState?: () => z.infer<(typeof AiEvents)['devices']>,
  ) {}

  attach(stream: EventStream, audience: Audience = 'desk'): void {
    this.streams.add(stream);
    if (audience === 'desk') this.desks.add(stream);
    stream.onClose(() => {
      this.streams.delete(stream);
      this.desks.delete(stream);
    });
    // however big the open asks made it, the first state reaches a window that reads (http/sse.ts)
    stream.send('state', this.state(), { first: true });
    if (audience === 'desk' && this.deskState) stream.send('devices', this.deskState());
  }

  /** An event for the desk's streams only (devices and agent tokens changed). */
  broadcastToDesk<K extends AiEventName>(event: K, data: z.infer<(typeof AiEvents)[K]>): void {
    for (const stream of this.desks) stream.send(event, data);
  }

  broadcast<K extends AiEventName>(event: K, data: z.infer<(typeof AiEvents)[K]>): void {
    for (const stream of this.streams) stream.send(event, data);
    const message = { event, data } as AiEvent;
    for (const listener of this.listeners) listener(message);
  }

  subscribe(listener: (event: AiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): StateEvent {
    return this.state();
  }

  /** how many windows are watching (0 means nobody sees a new ask) */
  get watchers(): number {
    return this.streams.size;
  }

  close(): void {
    for (const stream of [...this.streams]) stream.close();
  }
}
