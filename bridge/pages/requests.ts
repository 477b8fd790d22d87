import { randomUUID } from 'node:crypto';
import { frameOfTarget, MAIN_FRAME, NAVIGATION_COMMANDS, type Json, type ResultBody } from '../protocol/index.js';
import { BridgeError, Forbidden, NotFound } from '../errors.js';
import type { Page, PageRegistry } from './registry.js';

interface Pending {
  requestId: string;
  pageId: string;
  frameId: string;
  cmd: string;
  args: Json;
  resolve: (value: Json) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  sent: boolean;
}

/** how long the commands of a frame whose stream closed wait for results still on their way */
const RESULT_GRACE_MS = 500;
/** results remembered so that a repeat is not an error (a page repeats at most a few seconds of results) */
const TAKEN_KEPT = 1024;

/** A page command failed: the page went away, timed out, or reported an error. */
export class PageCommandError extends BridgeError {}

export interface SendOptions {
  frameId?: string;
  timeoutMs?: number;
}

/**
 * Sends commands down page streams and resolves them when their results arrive (on a page's result socket or by
 * POST /bridge/result). A result from another page is refused; a page that disconnects fails its pending requests
 * half a second later unless their results arrive meanwhile, except navigations, which complete when the new
 * document's agent connects again.
 */
export class PageRequests {
  private readonly pending = new Map<string, Pending>();
  /** the last results taken, by request: a page that unloads sends again what it sent over its socket */
  private readonly taken = new Map<string, string>();
  /** where a page's top document said it was going when it left (another origin means another page) */
  private readonly departures = new Map<string, { url: string; at: number }>();
  /** a frame that reloads gets this long to come back before a new command to it fails */
  readonly reconnectGraceMs = 5_000;

  constructor(
    private readonly pages: PageRegistry,
    private readonly defaultTimeoutMs: number,
  ) {
    pages.onChange((change) => {
      if (change.type === 'detached') this.frameGone(change.page, change.frameId ?? MAIN_FRAME);
      if (change.type === 'attached' && change.frameId) this.frameBack(change.page, change.frameId);
      if (change.type === 'forgotten')
        this.failAll(change.page.pageId, `page ${change.page.pageId} is gone (not seen for the TTL)`);
    });
  }

  send(page: Page, cmd: string, args: Json, options: SendOptions = {}): Promise<Json> {
    if (!this.pages.isOperable(page)) {
      return Promise.reject(
        new PageCommandError(
          `page ${page.pageId} (${page.origin}) is held until the human allows its origin in the AITI window`,
        ),
      );
    }
    // a ref handed out by a frame (`f1:e3`) goes to that frame when the caller named none
    const frameId = options.frameId ?? frameOfTarget(args) ?? MAIN_FRAME;
    const frame = page.frames.get(frameId);
    if (!frame) {
      const frames = [...page.frames.keys()].join(', ');
      return Promise.reject(
        new PageCommandError(`page ${page.pageId} has no frame "${frameId}"; its frames: ${frames}`),
      );
    }
    if (!frame.stream?.isOpen && frameId === MAIN_FRAME) {
      const next = this.replacement(page);
      if (next)
        return Promise.reject(
          new PageCommandError(
            `page ${page.pageId} has gone: its tab went on to ${next.url}, which is page ${next.pageId} (another origin is another page); call again with pageId "${next.pageId}"`,
          ),
        );
    }
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise<Json>((resolve, reject) => {
      const requestId = randomUUID();
      const entry: Pending = {
        requestId,
        pageId: page.pageId,
        frameId,
        cmd,
        args,
        resolve,
        reject,
        sent: false,
        timer: setTimeout(() => {
          this.pending.delete(requestId);
          const where = entry.sent ? 'did not answer' : 'did not reconnect';
          reject(new PageCommandError(`page ${page.pageId} ${where} ${cmd} within ${timeoutMs} ms`));
        }, timeoutMs),
      };
      this.pending.set(requestId, entry);
      if (frame.stream?.isOpen) this.dispatch(entry, page);
      else {
        // The frame may be reloading: give it a short grace to come back, then fail clearly.
        const grace = setTimeout(
          () => {
            if (!entry.sent && this.pending.has(requestId)) {
              this.settle(
                requestId,
                new PageCommandError(
                  `page ${page.pageId} is not connected (last seen ${new Date(frame.lastSeen).toISOString()}) and the command was not sent to any other page; ${this.candidates()}`,
                ),
              );
            }
          },
          Math.min(this.reconnectGraceMs, timeoutMs),
        );
        grace.unref();
      }
    });
  }

  /** The pages an agent could name instead, for errors: a command never moves to one of them by itself. */
  private candidates(): string {
    const rows = this.pages.operable().map((p) => `${p.pageId} (${p.url}${p.title ? `, "${p.title}"` : ''})`);
    return `connected pages: ${rows.length ? rows.join(', ') : 'none'} — pass one as pageId if you mean it`;
  }

  private dispatch(entry: Pending, page: Page): void {
    const frame = page.frames.get(entry.frameId);
    if (!frame?.stream?.isOpen) return;
    entry.sent = true;
    frame.stream.send('command', {
      requestId: entry.requestId,
      cmd: entry.cmd,
      args: entry.args,
      ...(entry.frameId !== MAIN_FRAME ? { frameId: entry.frameId } : {}),
    });
  }

  /** The top document of `pageId` is leaving for `url` (its agent says so as the navigation starts). */
  noteDeparture(pageId: string, url: string): void {
    this.departures.set(pageId, { url, at: Date.now() });
  }

  /** The page the tab of a gone page became: it left for another origin, and a page from there is connected. */
  private replacement(page: Page): Page | undefined {
    const left = this.departures.get(page.pageId);
    if (!left) return undefined;
    let origin: string;
    try {
      origin = new URL(left.url).origin;
    } catch {
      return undefined;
    }
    if (origin === page.origin) return undefined; // same origin: the same page comes back
    return this.pages
      .all()
      .find(
        (other) =>
          other !== page &&
          other.origin === origin &&
          this.pages.isOperable(other) &&
          Boolean(other.frames.get(MAIN_FRAME)?.stream?.isOpen) &&
          other.lastSeen >= left.at,
      );
  }

  /** Results taken, by the way they came, and repeats of results already taken (bridge_status `pageResults`). */
  readonly received = { socket: 0, post: 0, repeats: 0 };

  /** A result from a page, on its result socket or posted. Refused when the request was not sent to that page. */
  resolve(body: ResultBody, via: 'socket' | 'post'): void {
    const entry = this.pending.get(body.requestId);
    // the same page repeating a result already taken (bridge/pages/result-socket-routes.ts): nothing more to do
    if (!entry && this.taken.get(body.requestId) === body.pageId) {
      this.received.repeats++;
      return;
    }
    if (!entry)
      throw new NotFound(
        `no pending request "${body.requestId}" (it finished, timed out or never existed)`,
        'requestId',
      );
    if (entry.pageId !== body.pageId)
      throw new Forbidden(`request "${body.requestId}" was not sent to page ${body.pageId}`, 'pageId');
    const result = body.ok ? body.result : undefined;
    if (result && typeof result === 'object' && !Array.isArray(result) && typeof result.navigating === 'string')
      this.noteDeparture(body.pageId, result.navigating);
    this.received[via]++;
    this.taken.set(body.requestId, body.pageId);
    if (this.taken.size > TAKEN_KEPT) this.taken.delete(this.taken.keys().next().value as string);
    if (body.ok) this.settle(body.requestId, undefined, body.result ?? null);
    else this.settle(body.requestId, new PageCommandError(body.error));
  }

  private settle(requestId: string, error?: Error, value: Json = null): void {
    const entry = this.pending.get(requestId);
    if (!entry) return;
    this.pending.delete(requestId);
    clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(value);
  }

  /**
   * A frame's stream closed: its commands fail, RESULT_GRACE_MS later unless their results arrive meanwhile. A
   * document that unloads closes its stream at once but posts again, with keepalive, the results it had just sent
   * on its result socket (bridge/page-agent/result-socket.ts), and those can arrive after the close.
   */
  private frameGone(page: Page, frameId: string): void {
    const gone = [...this.pending.values()].filter(
      (entry) =>
        entry.pageId === page.pageId && entry.frameId === frameId && entry.sent && !NAVIGATION_COMMANDS.has(entry.cmd),
    );
    if (!gone.length) return;
    setTimeout(() => {
      for (const entry of gone)
        this.settle(
          entry.requestId,
          new PageCommandError(
            `page ${page.pageId} disconnected while running ${entry.cmd} (the page closed, crashed or reloaded)`,
          ),
        );
    }, RESULT_GRACE_MS).unref();
  }

  private frameBack(page: Page, frameId: string): void {
    const frame = page.frames.get(frameId);
    for (const entry of [...this.pending.values()]) {
      if (entry.pageId !== page.pageId || entry.frameId !== frameId) continue;
      if (entry.sent && NAVIGATION_COMMANDS.has(entry.cmd)) {
        this.settle(entry.requestId, undefined, { url: frame?.url ?? page.url, reloaded: true });
      } else if (!entry.sent) {
        this.dispatch(entry, page);
      }
    }
  }

  private failAll(pageId: string, reason: string): void {
    for (const entry of [...this.pending.values()])
      if (entry.pageId === pageId) this.settle(entry.requestId, new PageCommandError(reason));
  }

  get size(): number {
    return this.pending.size;
  }

  close(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, new PageCommandError('the bridge is shutting down'));
  }
}
