import type { Context } from 'koa';
import type { EventStream } from '../event-stream.js';

export interface SseOptions {
  pingMs: number;
  /** extra response headers, e.g. open CORS for page streams */
  headers?: Record<string, string>;
}

/** One server-sent-events stream on a raw Node response (never compressed, never buffered by a proxy). */
export class SseStream implements EventStream {
  private closed = false;
  private readonly closeHandlers: Array<() => void> = [];
  private readonly ping: NodeJS.Timeout;

  constructor(
    private readonly ctx: Context,
    options: SseOptions,
  ) {
    ctx.respond = false;
    const socket = ctx.req.socket;
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

  send(event: string, data: unknown): boolean {
    if (this.closed) return false;
    return this.ctx.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.closeHandlers.push(handler);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.ping);
    if (!this.ctx.res.writableEnded) this.ctx.res.end();
    for (const handler of this.closeHandlers.splice(0)) handler();
  }
}
