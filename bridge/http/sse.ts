import type { Context } from 'koa';
import type { EventStream } from '../event-stream.js';
import type { LimitCounters } from '../limits.js';

export interface SseOptions {
  pingMs: number;
  /** extra response headers, e.g. open CORS for page streams */
  headers?: Record<string, string>;
  /** counts the open streams and holds the unread-bytes budget (limits.sseBufferBytes) */
  limits?: LimitCounters;
}

/** characters written at once (an SSE event of megabytes goes in pieces of this) */
const PIECE = 64 * 1024;

/** One server-sent-events stream on a raw Node response (never compressed, never buffered by a proxy). */
export class SseStream implements EventStream {
  private closed = false;
  private readonly closeHandlers: Array<() => void> = [];
  private readonly ping: NodeJS.Timeout;
  private readonly limits?: LimitCounters;
  /** bytes of the first event still unread: the unread budget starts above them (see send) */
  private allowance = 0;

  constructor(
    private readonly ctx: Context,
    options: SseOptions,
  ) {
    this.limits = options.limits;
    ctx.respond = false;
    const socket = ctx.req.socket;
    this.limits?.streamOn(socket);
    socket.setTimeout(0);
    socket.setNoDelay(true);
    socket.setKeepAlive(true);
    ctx.res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      ...options.headers,
    });
    ctx.res.write(': aiti\n\n');
    if (this.limits) this.limits.openStreams++;
    this.ping = setInterval(() => this.send('ping', { at: new Date().toISOString() }), options.pingMs);
    this.ping.unref();
    const onGone = () => this.close();
    ctx.req.on('close', onGone);
    ctx.res.on('close', onGone);
    ctx.res.on('error', onGone);
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  /**
   * Writes one event. A reader that leaves more than its budget unread is disconnected (it reconnects and gets a
   * fresh `state`): a stalled window must not make the bridge hold every event for it. The first event (`first`)
   * is not judged: the window's `state` holds every open ask, and however big the asks made it, a window that
   * reads must get it whole (it was cut as it was written, and every reconnect met the same fate). The budget
   * counts from above it until it is read; a reader that never reads it is cut by the stalled-write rule
   * (http/slow-readers.ts).
   */
  send(event: string, data: unknown, options: { first?: boolean } = {}): boolean {
    if (this.closed) return false;
    const res = this.ctx.res;
    const budget = this.limits?.limits.sseBufferBytes ?? Infinity;
    // the first event's allowance lasts until what waits unread is within the budget again
    if (this.allowance && res.writableLength <= budget) this.allowance = 0;
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    // a big event goes in pieces: the kernel's progress shows as each piece is done (http/slow-readers.ts reads
    // it), where one write of megabytes would show none until its very end
    let flowing = true;
    for (let at = 0; at < text.length; at += PIECE) flowing = res.write(text.slice(at, at + PIECE));
    if (options.first) this.allowance = res.writableLength;
    if (this.limits && res.writableLength > budget + this.allowance) {
      this.limits.refused('sseReaders');
      this.close();
      // end() would keep the unread bytes until the reader takes them: drop them with the socket
      res.destroy();
      return false;
    }
    return flowing;
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.limits) this.limits.openStreams--;
    clearInterval(this.ping);
    if (!this.ctx.res.writableEnded) this.ctx.res.end();
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
