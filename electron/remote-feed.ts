import { AiEvents, type AiEvent, type StateEvent } from '../bridge/protocol/human.js';
import { impostorText, provePeer } from '../bridge/prove-peer.js';
import { SseParser } from '../bridge/protocol/sse.js';
import type { AskFeed } from './open-asks.js';

export interface RemoteFeed extends AskFeed {
  close(): void;
}

const EMPTY: StateEvent = { version: '', asks: [], agents: [], pages: [], inbox: {}, heldOrigins: [], away: false };

export interface RemoteFeedOptions {
  /** pause between attempts while the bridge does not answer */
  retryMs?: number;
  /** something else answers on the port: the feed stopped, and this says so for the person */
  onImpostor?(message: string): void;
}

/**
 * The human stream of a bridge in another process (GET /bridge/sse?role=ai), as an AskFeed: what the app uses
 * when it attached to a bridge already running, so the tray count and notifications still work. Reconnects
 * after a drop; each reconnect starts with a fresh `state`, which replaces the open asks. Before every connection
 * the bridge proves it holds the token (prove-peer.ts); when what answers cannot, the feed stops for good.
 */
export function remoteFeed(url: string, token: string, options: RemoteFeedOptions = {}): RemoteFeed {
  const retryMs = options.retryMs ?? 2000;
  const listeners = new Set<(event: AiEvent) => void>();
  let state = EMPTY;
  let closed = false;
  const controller = new AbortController();

  const dispatch = (name: string, raw: string) => {
    if (!(name in AiEvents)) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = AiEvents[name as keyof typeof AiEvents].safeParse(json);
    if (!parsed.success) return;
    const event = { event: name, data: parsed.data } as AiEvent;
    state = fold(state, event);
    for (const listener of listeners) listener(event);
  };

  const connect = async () => {
    while (!closed) {
      const proof = await provePeer({ url: new URL(url) }, token);
      if (closed) return;
      if (proof.kind === 'impostor') {
        closed = true;
        options.onImpostor?.(impostorText(url, proof.why));
        return;
      }
      if (proof.kind === 'proven') {
        try {
          const res = await fetch(`${url}/bridge/sse?role=ai`, {
            headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` },
            signal: controller.signal,
          });
          if (res.ok && res.body) await read(res.body, dispatch);
        } catch {
          // refused, reset or aborted: retry below unless closed
        }
      }
      if (!closed) await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
    }
  };
  void connect();

  return {
    snapshot: () => state,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => {
      closed = true;
      controller.abort();
    },
  };
}

/**
 * The snapshot after `event`: a `state` replaces it, an ask that opens or moves after it is kept in it, one that
 * ended leaves it. So whoever reads the snapshot later sees the asks open now, not those of the last connect.
 */
function fold(state: StateEvent, event: AiEvent): StateEvent {
  if (event.event === 'state') return event.data;
  if (event.event === 'ask') {
    const others = state.asks.filter((ask) => ask.askId !== event.data.askId);
    return { ...state, asks: [...others, event.data] };
  }
  if (event.event === 'ask_update') {
    const { askId, status, deadline, remainingMs, paused } = event.data;
    if (status !== 'open') return { ...state, asks: state.asks.filter((ask) => ask.askId !== askId) };
    return {
      ...state,
      asks: state.asks.map((ask) => (ask.askId === askId ? { ...ask, deadline, remainingMs, paused } : ask)),
    };
  }
  return state;
}

async function read(body: ReadableStream<Uint8Array>, dispatch: (event: string, data: string) => void) {
  const decoder = new TextDecoder();
  const parser = new SseParser();
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    for (const { event, data } of parser.push(decoder.decode(chunk, { stream: true }))) dispatch(event, data);
  }
}
