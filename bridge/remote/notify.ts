import type { AiEvent, AskView } from '../protocol/index.js';
import type { Logger } from '../log.js';

/**
 * `--notify <ntfy topic URL>`: when an ask has waited `--notify-after` with nobody answering, one message goes to
 * the topic, "2 asks waiting: claude-code", linking to the remote window. It names how many asks wait and whose,
 * never what they ask (unless --notify-detail: then the questions pass through the ntfy server) and never a token.
 * Each ask is announced once; asks answered before their time send nothing.
 */
export interface NotifyOptions {
  topic: string;
  /** Authorization: Bearer for a protected topic (sent to the ntfy server only) */
  token?: string;
  detail: boolean;
  afterMs: number;
  /** the open asks now */
  openAsks(): AskView[];
  /** where the human answers: the remote window, or the local one */
  windowUrl(): string | undefined;
  log: Logger;
  fetch?: typeof fetch;
}

export class AskNotifier {
  private readonly announced = new Set<string>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private failing = false;
  private readonly sent = new Set<Promise<void>>();

  constructor(private readonly options: NotifyOptions) {}

  /** Feed of the human hub: asks opening and ending. */
  readonly onEvent = (event: AiEvent): void => {
    if (event.event === 'ask') this.arm(event.data.askId);
    if (event.event === 'ask_update' && event.data.status !== 'open') this.disarm(event.data.askId);
  };

  private arm(askId: string): void {
    if (this.timers.has(askId) || this.announced.has(askId)) return;
    const timer = setTimeout(() => {
      this.timers.delete(askId);
      this.publish();
    }, this.options.afterMs);
    timer.unref();
    this.timers.set(askId, timer);
  }

  private disarm(askId: string): void {
    clearTimeout(this.timers.get(askId));
    this.timers.delete(askId);
    this.announced.delete(askId);
  }

  private publish(): void {
    const waiting = this.options.openAsks();
    const fresh = waiting.filter((ask) => !this.announced.has(ask.askId) && !this.timers.has(ask.askId));
    if (!fresh.length) return;
    for (const ask of waiting) {
      this.announced.add(ask.askId);
      clearTimeout(this.timers.get(ask.askId));
      this.timers.delete(ask.askId);
    }
    const agents = [...new Set(waiting.map((ask) => ask.agentId))];
    const title = `${waiting.length} ask${waiting.length === 1 ? '' : 's'} waiting: ${agents.join(', ')}`;
    const body = this.options.detail
      ? waiting.map((ask) => `${ask.agentId}: ${ask.prompt.slice(0, 300)}`).join('\n')
      : `${title}. Open the bridge's window to answer.`;
    const click = this.options.windowUrl();
    const headers: Record<string, string> = {
      Title: title,
      Priority: 'high',
      Tags: 'bell',
      'Content-Type': 'text/plain; charset=utf-8',
      ...(click ? { Click: click } : {}),
      ...(this.options.token ? { Authorization: `Bearer ${this.options.token}` } : {}),
    };
    const doFetch = this.options.fetch ?? fetch;
    const sending = doFetch(this.options.topic, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) })
      .then(async (res) => {
        await res.body?.cancel();
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        if (this.failing) this.options.log.info(`notifications reach ${this.options.topic} again`);
        this.failing = false;
      })
      .catch((error: unknown) => {
        if (!this.failing)
          this.options.log.warn(
            `could not notify ${this.options.topic} (${(error as Error).message}); check --notify and --notify-token`,
          );
        this.failing = true;
      });
    this.sent.add(sending);
    void sending.finally(() => this.sent.delete(sending));
  }

  /** Stops the timers; resolves once the notifications on their way are sent or failed. */
  async close(): Promise<void> {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.all([...this.sent]);
  }
}
