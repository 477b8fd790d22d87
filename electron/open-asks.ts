import type { AskView } from '../bridge/protocol/asks.js';
import type { AiEvent, StateEvent } from '../bridge/protocol/human.js';

/** The slice of the bridge's HumanHub the shell listens to (in-process: `bridge.context.hub`). */
export interface AskFeed {
  snapshot(): StateEvent;
  subscribe(listener: (event: AiEvent) => void): () => void;
}

export interface OpenAsks {
  /** the asks still waiting for the human, oldest first */
  list(): AskView[];
  /** called with each ask that opens after tracking started */
  onNewAsk(listener: (ask: AskView) => void): () => void;
  /** called whenever the number of open asks changes */
  onCountChange(listener: (count: number) => void): () => void;
  stop(): void;
}

/** Keeps the set of open asks from the hub's snapshot and its `ask` / `ask_update` events. */
export function trackOpenAsks(feed: AskFeed): OpenAsks {
  const open = new Map<string, AskView>();
  for (const ask of feed.snapshot().asks) open.set(ask.askId, ask);
  const newAsk = new Set<(ask: AskView) => void>();
  const countChange = new Set<(count: number) => void>();
  const changed = () => {
    for (const listener of countChange) listener(open.size);
  };

  const unsubscribe = feed.subscribe((event) => {
    if (event.event === 'ask') {
      const known = open.has(event.data.askId);
      open.set(event.data.askId, event.data);
      if (known) return;
      for (const listener of newAsk) listener(event.data);
      changed();
    } else if (event.event === 'ask_update' && event.data.status !== 'open') {
      if (open.delete(event.data.askId)) changed();
    } else if (event.event === 'state') {
      open.clear();
      for (const ask of event.data.asks) open.set(ask.askId, ask);
      changed();
    }
  });

  const add = <T>(set: Set<T>, listener: T) => {
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  };
  return {
    list: () => [...open.values()],
    onNewAsk: (listener) => add(newAsk, listener),
    onCountChange: (listener) => add(countChange, listener),
    stop: unsubscribe,
  };
}
