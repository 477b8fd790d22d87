import type { Socket } from 'node:net';

/**
 * Resource limits (README "Security" → limits): what one page, one origin or one slow reader may hold on the
 * bridge, so nothing a web page or a stalled window does can exhaust its memory or its event loop.
 */
export interface Limits {
  /** pages kept per loopback or allowed origin; past it the oldest closed page of that origin is forgotten */
  pagesPerOrigin: number;
  /** pages kept per origin still held for the human's approval */
  heldPagesPerOrigin: number;
  /** pages kept in all */
  pagesTotal: number;
  /** page command streams open at once */
  pageStreams: number;
  /** frames one page may register */
  framesPerPage: number;
  /** console, network and error records kept per page, in bytes (the oldest give way) */
  bufferBytesPerPage: number;
  /** the same records for all pages together (past it new records are refused) */
  bufferBytesTotal: number;
  /** bytes an SSE reader may leave unread before it is disconnected */
  sseBufferBytes: number;
  /** ms a connection (a response, an event stream) may have bytes waiting with no write progress before it is closed */
  stalledWriteMs: number;
  /** connections open at once from one client address on the local listener and the Unix socket */
  connectionsPerClient: number;
  /** connections open at once on the remote listener that have shown no credential yet (tunnels come from 127.0.0.1) */
  remoteAnonymousConnections: number;
  /** connections open at once on the remote listener in all */
  remoteConnections: number;
  /** how deeply a JSON body may nest */
  jsonDepth: number;
  /** the window gets at most one pages/agents update per this many ms */
  windowCoalesceMs: number;
  /** claims a second per loopback or allowed origin, and for all origins awaiting approval together */
  claimsPerSecond: number;
  /** claims at once (the bucket's size) per origin, before claimsPerSecond applies */
  claimBurst: number;
  /** claims a second from all origins together (a local program can send a new Origin each time) */
  claimsPerSecondTotal: number;
  /** claims at once from all origins together */
  claimBurstTotal: number;
  /** page requests but claims (results, events, frames, stream opens) a second per origin, as claimsPerSecond */
  pageRequestsPerSecond: number;
  pageRequestBurst: number;
  pageRequestsPerSecondTotal: number;
  pageRequestBurstTotal: number;
  /** how long a rate-limited request waits before its 429 is sent (0: answered at once) */
  tarpitMs: number;
  /** rate-limited requests held at once; past it they are answered at once */
  tarpitSockets: number;
  /** bytes of open asks (prompt, choices, command) one agent may have: past it its next ask is refused */
  askBytesPerAgent: number;
  /** open asks one agent may have at once */
  asksPerAgent: number;
}

export const DEFAULT_LIMITS: Limits = {
  pagesPerOrigin: 1000,
  heldPagesPerOrigin: 20,
  pagesTotal: 2000,
  pageStreams: 2000,
  framesPerPage: 64,
  bufferBytesPerPage: 2 * 1024 * 1024,
  bufferBytesTotal: 128 * 1024 * 1024,
  sseBufferBytes: 8 * 1024 * 1024,
  stalledWriteMs: 15_000,
  // loopback is one address for every local client: 500 pages (a stream and a result socket each) and 50 agents
  connectionsPerClient: 4096,
  // the pairing page and a few devices signing in; a tunnel's anonymous crowd stops here, apart from the desk
  remoteAnonymousConnections: 64,
  // devices (a window stream each, a few requests) and agents elsewhere (a session stream and calls each)
  remoteConnections: 1024,
  jsonDepth: 64,
  windowCoalesceMs: 250,
  // a reload is one claim: 200 tabs reloading at once, or a test run opening 100 tabs a second, stay under it
  claimsPerSecond: 100,
  claimBurst: 200,
  claimsPerSecondTotal: 400,
  claimBurstTotal: 800,
  // a page sends its console and network records in batches (at most every 300 ms, or per 100 records)
  pageRequestsPerSecond: 1000,
  pageRequestBurst: 2000,
  pageRequestsPerSecondTotal: 2000,
  pageRequestBurstTotal: 4000,
  tarpitMs: 1000,
  tarpitSockets: 256,
  // sixteen prompts of the longest kind (ASK_LIMITS.promptChars): an agent that needs more asks one at a time
  askBytesPerAgent: 512 * 1024,
  asksPerAgent: 20,
};

/** The limits a bridge runs with: the defaults, with what its configuration overrides. */
export function resolveLimits(overrides: Partial<Limits> = {}): Limits {
  return { ...DEFAULT_LIMITS, ...overrides };
}

/** The names bridge_status reports, one line each. */
export type LimitName =
  | 'pagesPerOrigin'
  | 'pagesTotal'
  | 'pageStreams'
  | 'framesPerPage'
  | 'bufferBytesPerPage'
  | 'bufferBytesTotal'
  | 'sseReaders'
  | 'slowReaders'
  | 'connectionsPerClient'
  | 'remoteConnections'
  | 'jsonDepth'
  | 'claimsPerOrigin'
  | 'claimsTotal'
  | 'pageRequestsPerOrigin'
  | 'pageRequestsTotal'
  | 'tarpit'
  | 'askBytesPerAgent'
  | 'asksPerAgent';

export interface LimitLine {
  limit: number;
  /** what is held now, where that is one number */
  current?: number;
  /** refusals, dropped records or disconnected readers since the bridge started */
  refused: number;
}

/**
 * Counts refusals per limit and reads the current use from the modules that own it (the registry owns pages,
 * the buffers own bytes). Owned by the bridge context; bridge_status reads `report()`.
 */
export class LimitCounters {
  private readonly refusals = new Map<LimitName, number>();
  private readonly readers = new Map<LimitName, () => number>();
  /** SSE streams open now (page and window streams) */
  openStreams = 0;
  /** sockets of SSE streams, which keep their unread-bytes rule (sseBufferBytes) beside the stalled-write one */
  private readonly streamSockets = new WeakSet<Socket>();
  /** remote listener sockets waiting to show a credential (http/slow-readers.ts budgets them) */
  private readonly anonymous = new WeakSet<Socket>();
  private credentialListeners: Array<(socket: Socket) => void> = [];

  constructor(readonly limits: Limits) {}

  /** An SSE stream writes on this socket: the stalled-write rule (http/slow-readers.ts) leaves it alone. */
  streamOn(socket: Socket | null | undefined): void {
    if (socket) this.streamSockets.add(socket);
  }

  isStream(socket: Socket): boolean {
    return this.streamSockets.has(socket);
  }

  /** A remote listener's connection, counted as anonymous until a request on it shows a credential. */
  watchCredential(socket: Socket): void {
    this.anonymous.add(socket);
  }

  /** A request on this socket carried a credential (remote/guard.ts): it leaves the anonymous budget. */
  credentialed(socket: Socket | null | undefined): void {
    if (!socket || !this.anonymous.has(socket)) return;
    this.anonymous.delete(socket);
    for (const listener of this.credentialListeners) listener(socket);
  }

  onCredentialed(listener: (socket: Socket) => void): void {
    this.credentialListeners.push(listener);
  }

  refused(name: LimitName, count = 1): void {
    this.refusals.set(name, (this.refusals.get(name) ?? 0) + count);
  }

  /** Tells the report how to read the current use of a limit. */
  current(name: LimitName, read: () => number): void {
    this.readers.set(name, read);
  }

  report(): Record<LimitName, LimitLine> {
    const l = this.limits;
    const line = (name: LimitName, limit: number): LimitLine => {
      const read = this.readers.get(name);
      return { limit, ...(read ? { current: read() } : {}), refused: this.refusals.get(name) ?? 0 };
    };
    return {
      pagesPerOrigin: line('pagesPerOrigin', l.pagesPerOrigin),
      pagesTotal: line('pagesTotal', l.pagesTotal),
      pageStreams: line('pageStreams', l.pageStreams),
      framesPerPage: line('framesPerPage', l.framesPerPage),
      bufferBytesPerPage: line('bufferBytesPerPage', l.bufferBytesPerPage),
      bufferBytesTotal: line('bufferBytesTotal', l.bufferBytesTotal),
      sseReaders: { ...line('sseReaders', l.sseBufferBytes), current: this.openStreams },
      slowReaders: line('slowReaders', l.stalledWriteMs),
      connectionsPerClient: line('connectionsPerClient', l.connectionsPerClient),
      // limit: anonymous connections; current: all of the remote listener's
      remoteConnections: line('remoteConnections', l.remoteAnonymousConnections),
      jsonDepth: line('jsonDepth', l.jsonDepth),
      claimsPerOrigin: line('claimsPerOrigin', l.claimsPerSecond),
      claimsTotal: line('claimsTotal', l.claimsPerSecondTotal),
      pageRequestsPerOrigin: line('pageRequestsPerOrigin', l.pageRequestsPerSecond),
      pageRequestsTotal: line('pageRequestsTotal', l.pageRequestsPerSecondTotal),
      // current: refusals being held now; refused: those answered at once because the tarpit was full
      tarpit: line('tarpit', l.tarpitSockets),
      askBytesPerAgent: line('askBytesPerAgent', l.askBytesPerAgent),
      asksPerAgent: line('asksPerAgent', l.asksPerAgent),
    };
  }
}
