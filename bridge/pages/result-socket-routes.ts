import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import { ZodError } from 'zod';
import type { BridgeConfig } from '../config.js';
import type { LimitCounters } from '../limits.js';
import type { Logger } from '../log.js';
import type { Tarpit } from '../http/tarpit.js';
import type { OriginRate } from './origin-rate.js';
import type { PageRegistry } from './registry.js';
import type { PageRequests } from './requests.js';
import { Forbidden, NotFound, RateLimited } from '../errors.js';
import { MAIN_FRAME, ResultBody, ResultSocketQuery } from '../protocol/index.js';
import { answerFor, type ErrorAnswer } from '../http/errors.js';
import { hostCheck } from '../http/guard.js';
import { checkPeer } from '../http/peer.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.js';
import { nestsDeeperThan } from '../http/json-depth.js';

/** The socket's path, bare and under the /aiti prefix like every route. */
const PATHS = new Set(['/bridge/result-socket', '/aiti/bridge/result-socket']);

/** RFC 6455 close codes the page agent sees when the bridge ends a socket. */
const CLOSE = { normal: 1000, going: 1001, unsupported: 1003, invalid: 1007, policy: 1008 } as const;

/**
 * The page agent's fast path for command results (docs/CONTRACT-CHANGES.md): one WebSocket per page frame,
 * opened on the frame's first command, each text message one result. A fetch costs Chromium a URL loader, a
 * CORS check and a response; a message on an open socket costs a frame, which took the page's share of a
 * `page_exec` round trip from ~3 ms to well under 1 ms (docs/PERFORMANCE.md). `POST /bridge/result` stays, for the
 * first result, large ones, results of a document that is leaving, and pages where the socket cannot open.
 *
 * The socket is in the page zone and passes the same checks as `POST /bridge/result`, at the upgrade, before the
 * bridge answers 101: the Host (DNS rebinding), the origin's page-request budget, the page's secret, and the
 * page must be operable with that frame's command stream open. Each message then takes from the origin's
 * budget again, and may only answer a request that was sent to this page. A socket that breaks a rule is closed
 * with the reason; the page agent posts its results instead.
 */
/** The page zone's services the socket checks and answers with, as `POST /bridge/result` does. */
export interface ResultSocketServices {
  config: Pick<BridgeConfig, 'allowedHosts'>;
  pages: Pick<PageRegistry, 'onChange' | 'authorize' | 'isOperable' | 'get' | 'touch'>;
  requests: Pick<PageRequests, 'resolve'>;
  pageRate: Pick<OriginRate, 'take'>;
  limits: Pick<LimitCounters, 'limits' | 'refused'>;
  tarpit: Pick<Tarpit, 'hold'>;
  log: Logger;
}

export class ResultSockets {
  private server?: Promise<WebSocketServer>;
  /** one socket per page frame: a new one replaces the old */
  private readonly open = new Map<string, WebSocket>();
  private readonly stopWatching: () => void;
  private readonly checkHost: (host: string) => void;

  constructor(private readonly bridge: ResultSocketServices) {
    this.checkHost = hostCheck(bridge.config.allowedHosts);
    // a frame whose command stream closed has no requests left to answer
    this.stopWatching = bridge.pages.onChange((change) => {
      // no `forgotten` case: registry.ts forgets a page only with no stream open, and each stream's `detached`
      // closed its frame's socket here already
      if (change.type === 'detached')
        this.end(keyOf(change.page.pageId, change.frameId ?? MAIN_FRAME), 'the stream closed');
    });
  }

  /** The HTTP server's `upgrade` listener. Another path is not ours: 404. */
  readonly upgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    // Stryker disable next-line ArrowFunction: equivalent, a net socket is destroyed already when it emits 'error'
    socket.on('error', () => socket.destroy());
    // Stryker disable next-line StringLiteral: unreachable, a request the HTTP server parsed always has a url
    const path = req.url ?? '/';
    const url = new URL(path, 'http://bridge.invalid');
    if (!PATHS.has(url.pathname)) return refuse(socket, 404, { error: `no route GET ${url.pathname}` });
    let admitted: Admitted;
    try {
      admitted = this.admit(req, url);
    } catch (error) {
      // a rate-limited upgrade waits in the tarpit like any refused page request (bridge/http/tarpit.ts)
      if (error instanceof RateLimited)
        void this.bridge.tarpit.hold(socket).then(() => refuse(socket, ...answerOf(error)));
      else refuse(socket, ...answerOf(error));
      return;
    }
    void this.wsServer().then(
      (server) => server.handleUpgrade(req, socket, head, (ws) => this.serve(ws, admitted)),
      // unreachable: ws is a dependency of the bridge, and it loads
      // Stryker disable next-line all: unreachable, see above
      (error: unknown) => {
        // Stryker disable next-line all: unreachable, see above
        this.bridge.log.error('result socket:', error);
        // Stryker disable next-line all: unreachable, see above
        refuse(socket, 500, { error: 'the bridge could not open a WebSocket' });
      },
    );
  };

  /** Closes every socket (the bridge is stopping). */
  close(): void {
    this.stopWatching();
    for (const key of [...this.open.keys()]) this.end(key, 'the bridge is shutting down', CLOSE.going);
  }

  private admit(req: IncomingMessage, url: URL): Admitted {
    const { bridge } = this;
    checkPeer(req);
    this.checkHost(req.headers.host ?? '');
    const origin = req.headers.origin || undefined;
    bridge.pageRate.take(origin);
    const query = ResultSocketQuery.parse(Object.fromEntries(url.searchParams));
    const page = bridge.pages.authorize(query.pageId, query.secret, origin);
    if (!bridge.pages.isOperable(page))
      throw new Forbidden(
        `page ${page.pageId} is held until the human allows its origin; it has no commands to answer`,
      );
    const frameId = query.frameId ?? MAIN_FRAME;
    if (!page.frames.get(frameId)?.stream?.isOpen)
      throw new NotFound(`frame "${frameId}" of page ${page.pageId} has no open command stream`, 'frameId');
    return { pageId: page.pageId, frameId, origin };
  }

  private serve(ws: WebSocket, { pageId, frameId, origin }: Admitted): void {
    // the stream may have closed while the upgrade finished
    if (!this.bridge.pages.get(pageId)?.frames.get(frameId)?.stream?.isOpen) {
      ws.close(CLOSE.normal, 'the stream closed');
      return;
    }
    const key = keyOf(pageId, frameId);
    this.end(key, 'replaced by a newer socket of the same frame');
    this.open.set(key, ws);
    // a closed socket left in `open` would only be closed again (by a newer one, or its frame's end): ws ignores that
    // Stryker disable next-line StringLiteral,BlockStatement: equivalent, see above
    ws.on('close', () => {
      if (this.open.get(key) === ws) this.open.delete(key);
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data, isBinary) => {
      // what arrives after the bridge closed the socket is not taken
      if (ws.readyState !== ws.OPEN) return;
      if (isBinary) return ws.close(CLOSE.unsupported, 'send results as text messages');
      try {
        this.take(pageId, origin, String(data));
      } catch (error) {
        const invalid = error instanceof ZodError || error instanceof SyntaxError;
        ws.close(invalid ? CLOSE.invalid : CLOSE.policy, closeReason(error));
      }
    });
  }

  /** One result, as `POST /bridge/result` takes it. */
  private take(pageId: string, origin: string | undefined, text: string): void {
    const { bridge } = this;
    bridge.pageRate.take(origin);
    const depth = bridge.limits.limits.jsonDepth;
    if (nestsDeeperThan(text, depth)) {
      bridge.limits.refused('jsonDepth');
      throw new Forbidden(`a result nested deeper than ${depth} levels`);
    }
    const message = JSON.parse(text) as unknown;
    if (!message || typeof message !== 'object' || Array.isArray(message))
      throw new Forbidden('a result message must be a JSON object');
    const body = ResultBody.parse({ ...message, pageId, secret: undefined });
    // the page was forgotten (TTL) while its socket stayed open: nothing it says counts any more. Unreachable today
    // (forgetting a page needs its streams closed, and that closed its sockets); kept, as the one check that a
    // forgotten page's socket cannot answer for it
    const page = bridge.pages.get(pageId);
    // Stryker disable next-line StringLiteral: unreachable, see above
    if (!page) throw new Forbidden(`page ${pageId} is no longer known`);
    try {
      bridge.requests.resolve(body, 'socket');
    } catch (error) {
      // a late answer to a request that timed out: the POST route answers 404, the socket carries on
      if (!(error instanceof NotFound)) throw error;
    }
    bridge.pages.touch(page);
  }

  private end(key: string, reason: string, code: number = CLOSE.normal): void {
    const ws = this.open.get(key);
    if (!ws) return;
    this.open.delete(key);
    ws.close(code, reason);
  }

  private wsServer(): Promise<WebSocketServer> {
    // loaded on the first socket: most bridges never drive a page, and startup is measured
    return (this.server ??= import('ws').then(
      ({ WebSocketServer }) =>
        new WebSocketServer({
          noServer: true,
          // the page agent sends larger results by POST (bridge/page-agent/result-socket.ts MAX_MESSAGE)
          maxPayload: DEFAULT_BODY_LIMIT,
          perMessageDeflate: false,
          // Stryker disable next-line BooleanLiteral: equivalent, the server's own set of clients is never read
          clientTracking: false,
        }),
    ));
  }
}

interface Admitted {
  pageId: string;
  frameId: string;
  origin: string | undefined;
}

function keyOf(pageId: string, frameId: string): string {
  return `${pageId} ${frameId}`;
}

/** The status and body of a refused upgrade, as the HTTP routes answer them (bridge/http/errors.ts). */
function answerOf(error: unknown): [number, ErrorAnswer['body'], number?] {
  const answer = answerFor(error);
  // admit throws only domain and zod errors: this is for a bug, which then answers 500 rather than crashing
  // Stryker disable next-line ArrayDeclaration,ObjectLiteral,StringLiteral: unreachable, see above
  if (!answer) return [500, { error: 'the bridge could not check this socket' }];
  return [answer.status, answer.body, answer.retryAfterS];
}

/** An upgrade refused before 101: a plain HTTP answer with `{error, field?}`, then the connection closes. */
function refuse(socket: Duplex, status: number, answer: ErrorAnswer['body'], retryAfterS?: number): void {
  // a socket the client reset while its refusal waited in the tarpit: nothing to answer
  if (socket.destroyed) return;
  const body = JSON.stringify(answer);
  // Stryker disable next-line StringLiteral: unreachable, every status the bridge answers has a reason phrase
  const reasonPhrase = STATUS_CODES[status] ?? 'Error';
  socket.end(
    [
      `HTTP/1.1 ${status} ${reasonPhrase}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      ...(retryAfterS ? [`Retry-After: ${retryAfterS}`] : []),
      'Connection: close',
      '',
      body,
    ].join('\r\n'),
  );
}

/** A close frame's reason is at most 123 bytes. */
function closeReason(error: unknown): string {
  // Stryker disable next-line StringLiteral: unreachable, take throws only Errors
  const message = answerFor(error)?.body.error ?? (error instanceof Error ? error.message : 'refused');
  const bytes = Buffer.from(message);
  if (bytes.length <= 123) return message;
  const cut = bytes.subarray(0, 120).toString('utf8');
  // a reason long enough to be cut carries page text only from the Origin header, which Node reads as latin-1: the
  // one U+FFFD it can hold is the one the cut made of a split character
  // Stryker disable next-line Regex: equivalent, see above
  return cut.replace(/\uFFFD$/, '') + '…';
}
