import type { Json } from '../../protocol/common.js';
import type { PageEventType } from '../../protocol/page.js';

export type Send = (type: PageEventType, payload: Json, keepalive: boolean) => Promise<void>;

/**
 * Watching events leave in batches: at most every 300 ms, or at once when 100 are waiting; before the page has
 * a session they wait (up to 500 per type), and the last batch leaves with keepalive when the page unloads.
 */
export class Batcher {
  private readonly queues = new Map<PageEventType, Json[]>();
  private timer?: ReturnType<typeof setTimeout>;
  private send?: Send;

  constructor(private readonly maxBatch = 100) {}

  attach(send: Send): void {
    this.send = send;
    this.schedule();
  }

  push(type: PageEventType, entry: Json): void {
    let queue = this.queues.get(type);
    if (!queue) this.queues.set(type, (queue = []));
    queue.push(entry);
    if (queue.length > 500) queue.splice(0, queue.length - 500);
    if (queue.length >= this.maxBatch) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer || !this.send) return;
    this.timer = setTimeout(() => this.flush(), 300);
  }

  /** Sends what waits now; resolves once the bridge has taken it (or the send failed). */
  flush(keepalive = false): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const send = this.send;
    if (!send) return Promise.resolve();
    const sent: Array<Promise<void>> = [];
    for (const [type, queue] of this.queues) {
      while (queue.length) {
        const batch = queue.splice(0, this.maxBatch);
        sent.push(
          send(type, batch, keepalive).catch(() => {
            // the bridge is away: these entries are lost rather than retried forever
          }),
        );
      }
    }
    return Promise.all(sent).then(() => undefined);
  }

  /** An entry on its way in (its stack being mapped): a drain waits for it. */
  later(entry: Promise<void>): void {
    this.pending.add(entry);
    void entry.finally(() => this.pending.delete(entry));
  }

  /**
   * Everything the page has not sent yet, sent now: entries still being mapped (up to `maxMs`), then the queues.
   * page_logs calls it before it reads, so an error of a moment ago is in its answer.
   */
  async drain(maxMs = 1500): Promise<void> {
    const waiting = Promise.allSettled([...this.pending]);
    await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, maxMs))]);
    await this.flush();
  }

  private readonly pending = new Set<Promise<void>>();
}

export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 20)}…[${text.length - max + 20} more]` : text;
}
