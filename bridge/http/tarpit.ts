import type { Context, Next } from 'koa';
import { RateLimited } from '../errors.js';
import type { LimitCounters } from '../limits.js';

/** What a held refusal waits on: the client going away frees its place. */
interface Closable {
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Holds a rate-limited refusal for limits.tarpitMs before it is answered. A client that keeps N requests in flight
 * then sends at most N per tarpitMs once it is over its rate (a browser tab keeps at most 6 per host), so a flood
 * costs the bridge almost nothing while the agents' calls go on. At most limits.tarpitSockets are held at once;
 * past that (a local program with many connections), refusals are answered at once and counted.
 */
export class Tarpit {
  private readonly releases = new Set<() => void>();
  private closed = false;

  constructor(private readonly counters: LimitCounters) {
    counters.current('tarpit', () => this.releases.size);
  }

  /** Koa middleware: a RateLimited error thrown further in waits here, then goes on to the error responder. */
  middleware() {
    return async (ctx: Context, next: Next) => {
      try {
        await next();
      } catch (error) {
        if (error instanceof RateLimited) await this.hold(ctx.res);
        throw error;
      }
    };
  }

  /** Waits out the tarpit for one refusal on `connection` (a response, or a socket refused before an upgrade). */
  hold(connection: Closable): Promise<void> {
    const { tarpitMs, tarpitSockets } = this.counters.limits;
    if (tarpitMs <= 0 || this.closed) return Promise.resolve();
    if (this.releases.size >= tarpitSockets) {
      this.counters.refused('tarpit');
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        connection.off('close', release);
        this.releases.delete(release);
        resolve();
      };
      const timer = setTimeout(release, tarpitMs);
      // a client that gives up frees its place at once
      connection.once('close', release);
      this.releases.add(release);
    });
  }

  /** Answers every held refusal now (the bridge is closing). */
  close(): void {
    this.closed = true;
    for (const release of [...this.releases]) release();
  }
}
