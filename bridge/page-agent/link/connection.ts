import { MAIN_FRAME, type Json } from '../../protocol/common.js';
import { ClaimAnswer, CommandEvent, PageHelloEvent, type PageEventType } from '../../protocol/page.js';
import type { BridgeEndpoint } from './env.js';
import { randomId } from './env.js';
import { loadIdentity, saveIdentity } from './identity.js';
import { ResultSocket, type SocketResult, type SocketSession } from './result-socket.js';
import { BridgeHttpError, postJson } from './transport.js';

/** Who this document is for the bridge: the page, and its frame in that page. */
export interface Session {
  base: string;
  pageId: string;
  secret: string;
  instanceId: string;
  frameId: string;
  operable: boolean;
}

export type CommandListener = (command: CommandEvent) => void;

/**
 * The command stream: obtains a session (claim, or ask the parent frame), opens the SSE stream, and reconnects
 * with backoff when it drops — claiming again, since a restarted bridge has forgotten the page.
 */
export class Connection {
  session?: Session;
  private source?: EventSource;
  private attempts = 0;
  private stopped = true;
  private connected = false;
  private readyWaiters: Array<(session: Session) => void> = [];
  private readonly sessionListeners: Array<(session: Session) => void> = [];
  private readonly results = new ResultSocket(
    (session, result) => void postResult(session, result).catch(() => undefined),
  );

  constructor(
    readonly endpoint: BridgeEndpoint,
    private readonly obtain: () => Promise<Session>,
    private readonly frameworks: () => string[],
    private readonly onCommand: CommandListener,
  ) {}

  /** Connects; a no-op while already connected or connecting. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.connect();
  }

  /** Closes the stream now (pagehide) so the bridge sees the document go without waiting for a timeout. */
  stop(): void {
    this.results.close();
    this.stopped = true;
    this.connected = false;
    this.source?.close();
    this.source = undefined;
  }

  /** Resolves once the stream is open (at once when it already is). */
  ready(): Promise<Session> {
    if (this.connected && this.session) return Promise.resolve(this.session);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  onSession(listener: (session: Session) => void): void {
    this.sessionListeners.push(listener);
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let session: Session;
    try {
      session = await this.obtain();
    } catch {
      this.retry();
      return;
    }
    this.session = session;
    const query = new URLSearchParams({
      role: 'page',
      instanceId: session.instanceId,
      secret: session.secret,
      url: location.href,
      frameworks: this.frameworks().join(','),
    });
    if (session.frameId !== MAIN_FRAME) query.set('frameId', session.frameId);
    const source = new EventSource(`${session.base}/bridge/sse?${query}`);
    this.source = source;
    source.addEventListener('hello', (event) => {
      const hello = PageHelloEvent.safeParse(parse((event as MessageEvent<string>).data));
      if (hello.success) session.operable = hello.data.operable;
      this.attempts = 0;
      this.connected = true;
      for (const listener of this.sessionListeners) listener(session);
      for (const resolve of this.readyWaiters.splice(0)) resolve(session);
    });
    source.addEventListener('command', (event) => {
      const command = CommandEvent.safeParse(parse((event as MessageEvent<string>).data));
      if (command.success) this.onCommand(command.data);
    });
    source.onerror = () => {
      if (this.source !== source) return;
      // EventSource retries network errors itself but gives up on HTTP errors; one policy for both.
      source.close();
      this.source = undefined;
      this.connected = false;
      this.retry();
    };
  }

  private retry(): void {
    if (this.stopped) return;
    const delay = Math.min(15_000, 250 * 2 ** this.attempts++) * (0.75 + Math.random() / 2);
    setTimeout(() => void this.connect(), delay);
  }

  /**
   * A command's result: over the result socket when it is open, else (and for a document that is leaving, whose
   * socket may not outlive it) as a keepalive POST, which arrives even when the command unloaded the document.
   */
  async postResult(
    requestId: string,
    outcome: { ok: true; result: Json } | { ok: false; error: string },
    options: { leaving?: boolean } = {},
  ): Promise<void> {
    const session = this.session ?? (await this.ready());
    const result: SocketResult = { requestId, ...outcome };
    if (!options.leaving && this.results.send(session, result)) return;
    await postResult(session, result);
  }

  async postEvent(type: PageEventType, payload: Json, options: { keepalive?: boolean } = {}): Promise<void> {
    const session = this.session ?? (await this.ready());
    await postJson(
      `${session.base}/bridge/event`,
      {
        pageId: session.pageId,
        secret: session.secret,
        type,
        payload,
        ...(session.frameId !== MAIN_FRAME ? { frameId: session.frameId } : {}),
      },
      options,
    );
  }
}

function postResult(session: SocketSession, result: SocketResult): Promise<unknown> {
  return postJson(
    `${session.base}/bridge/result`,
    { pageId: session.pageId, secret: session.secret, ...result },
    { keepalive: true },
  );
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

/** The top document's session: claim with the identity kept in sessionStorage (a reload keeps the pageId). */
export async function claimPage(endpoint: BridgeEndpoint, frameworks: string[]): Promise<Session> {
  let identity = loadIdentity(endpoint.base) ?? { instanceId: randomId() };
  const body = () => ({
    instanceId: identity.instanceId,
    ...(identity.secret ? { secret: identity.secret } : {}),
    pageKey: location.origin + location.pathname,
    url: location.href,
    frameworks,
    title: document.title.slice(0, 1024),
  });
  let raw: unknown;
  try {
    raw = await postJson(`${endpoint.base}/bridge/claim`, body());
  } catch (error) {
    // 403: the instance belongs to another secret (a copied tab): become a new page instead.
    if (!(error instanceof BridgeHttpError) || error.status !== 403) throw error;
    identity = { instanceId: randomId() };
    raw = await postJson(`${endpoint.base}/bridge/claim`, body());
  }
  const answer = ClaimAnswer.parse(raw);
  saveIdentity(endpoint.base, { instanceId: identity.instanceId, secret: answer.secret });
  return {
    base: endpoint.base,
    pageId: answer.pageId,
    secret: answer.secret,
    instanceId: identity.instanceId,
    frameId: MAIN_FRAME,
    operable: answer.operable,
  };
}
