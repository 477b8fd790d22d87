import { AiEvents, type AiEvent, type AiEventName } from '../../bridge/protocol/index.js';
import type { PeerProof } from './token-proof.js';

export interface StreamHandlers {
  onEvent(event: AiEvent): void;
  /**
   * `live` once the `state` event arrived; `reconnecting` while the stream is down; `impostor` when what answers
   * on the port could not prove it holds the token: the stream stopped for good, and sent it nothing
   */
  onStatus(status: 'live' | 'reconnecting' | 'impostor'): void;
  onProblem(problem: string): void;
}

export interface StreamOptions {
  /** the stream's URL, with the token in its query: asked for and opened only right after a proof */
  url: () => string;
  /** asked before every (re)connection (token-proof.ts) */
  prove(): Promise<PeerProof>;
  /** no event (pings included) for this long means a dead connection */
  silenceMs?: number;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];

/**
 * The role=ai stream with its own reconnect: every (re)connection starts with a `state` event that replaces
 * what the window holds, so nothing is lost or doubled across a drop. Every event is checked with its schema.
 * Each connection is opened only after what answers on the port proved it holds the token.
 */
export function openStream(options: StreamOptions, handlers: StreamHandlers): () => void {
  const silenceMs = options.silenceMs ?? 45_000;
  let source: EventSource | undefined;
  let attempt = 0;
  let stopped = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;

  const heard = () => {
    clearTimeout(silenceTimer);
    silenceTimer = setTimeout(() => fail(), silenceMs);
  };

  const fail = () => {
    if (stopped) return;
    source?.close();
    source = undefined;
    clearTimeout(silenceTimer);
    handlers.onStatus('reconnecting');
    const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 8000;
    attempt += 1;
    retryTimer = setTimeout(connect, delay);
  };

  const connect = () => {
    options.prove().then(
      (proof) => {
        if (stopped) return;
        if (proof.kind === 'proven') return open();
        if (proof.kind === 'unreachable') return fail();
        stopped = true;
        handlers.onProblem(proof.why);
        handlers.onStatus('impostor');
      },
      () => fail(),
    );
  };

  const open = () => {
    const es = new EventSource(options.url());
    source = es;
    heard();
    for (const name of Object.keys(AiEvents) as AiEventName[]) {
      es.addEventListener(name, (raw) => {
        if (source !== es) return;
        heard();
        let json: unknown;
        try {
          json = JSON.parse((raw as MessageEvent<string>).data);
        } catch {
          handlers.onProblem(`a "${name}" event was not JSON`);
          return;
        }
        const parsed = AiEvents[name].safeParse(json);
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          handlers.onProblem(`ignored a "${name}" event: ${issue?.path.join('.') || 'body'}: ${issue?.message}`);
          return;
        }
        if (name === 'state') {
          attempt = 0;
          handlers.onStatus('live');
        }
        handlers.onEvent({ event: name, data: parsed.data } as AiEvent);
      });
    }
    es.onerror = () => {
      if (source === es) fail();
    };
  };

  connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(silenceTimer);
    source?.close();
  };
}
