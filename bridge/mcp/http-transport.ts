import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  SUPPORTED_PROTOCOL_VERSIONS,
  type AuthInfo,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
  type TransportSendOptions,
} from '@modelcontextprotocol/server';
import type { LimitCounters } from '../limits.js';
import { jsonRpcKind } from './jsonrpc-kind.js';
import { bearerOf } from './bearer.js';
import {
  GET_STREAM,
  isThisRun,
  PostExchange,
  postStreamKey,
  SseWriter,
  takesEmptyEvents,
  streamOrigin,
  type StreamOrigin,
} from './http-streams.js';

/** The answer a client gets when its session ends before its call was answered. */
const SESSION_ENDED = -32000;

/** The id of the initialize a restored session's server hears again; its answer is dropped. */
const RESTORE_ID = 'aiti-bridge-restore-initialize';

/** What a client that resumes the stream of a call whose answer is gone gets, for each of those calls. */
const LOST =
  'the connection to the bridge broke while this call was running and its answer is lost (the bridge restarted, or the answer went out on the broken stream); a question to the human it asked ended "cancelled: the bridge restarted" and is in aiti_inbox; call again';

interface HttpTransportOptions {
  /** makes the session id at initialize; without it the transport serves one stateless request */
  sessionIdGenerator?: () => string;
  /** a session the bridge had before it restarted: its id, already initialized */
  restoredSessionId?: string;
  /** SSE comment lines on open streams this often, so proxies and clients keep them */
  keepAliveMs: number;
  /** the client ended the session with DELETE */
  onsessionclosed?: () => void;
}

interface ExchangeOptions {
  /** a POST's body, already read and parsed */
  body?: unknown;
  /** plain HTTP clients (stateless curl, fetch): no Accept or Content-Type requirements */
  lenient?: boolean;
  /** the answer may become an SSE stream (default true; a stateless call allows it when it asked for progress) */
  streamable?: boolean;
  /** a reader that leaves more than limits.sseBufferBytes unread is disconnected */
  limits?: LimitCounters;
  /** the GET stream opened */
  onStreamOpen?: () => void;
}

/**
 * The MCP Streamable HTTP server transport on Node's own request and response (README "HTTP surface"), in place
 * of the SDK's web-standard one, which builds a Web Request, a Response and a ReadableStream for every call
 * and zod-parses every message several times. Same wire behaviour: POST messages (202 for notifications, an
 * answer as JSON or SSE for requests), one GET stream per session for what the server sends on its own, DELETE
 * to end the session, the session and protocol-version headers checked as the SDK checks them.
 */
export class HttpTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private initialized = false;
  /** the protocol version the client asked for at initialize */
  private version?: string;
  private closed = false;
  private stream?: SseWriter;
  /** open POST answers, by the ids of the requests they carry */
  private readonly exchanges = new Map<RequestId, PostExchange>();
  /** the same, by the key their stream's event ids carry (what a resume names) */
  private readonly streams = new Map<string, PostExchange>();

  constructor(private readonly options: HttpTransportOptions) {
    if (options.restoredSessionId !== undefined) {
      this.sessionId = options.restoredSessionId;
      this.initialized = true;
    }
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Serves one HTTP request of this session (or the one stateless request); resolves when its answer ended. */
  async handle(req: IncomingMessage, res: ServerResponse, options: ExchangeOptions = {}): Promise<void> {
    if (this.closed) return jsonError(res, 404, -32001, 'Session not found');
    switch (req.method) {
      case 'POST':
        return this.post(req, res, options);
      case 'GET':
        return this.get(req, res, options);
      case 'DELETE':
        return this.delete(req, res);
      default:
        res.setHeader('allow', 'GET, POST, DELETE');
        return jsonError(res, 405, -32000, 'Method not allowed.');
    }
  }

  private async post(req: IncomingMessage, res: ServerResponse, options: ExchangeOptions): Promise<void> {
    if (!options.lenient) {
      const accept = req.headers.accept ?? '';
      if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
        return jsonError(
          res,
          406,
          -32000,
          'Not Acceptable: Client must accept both application/json and text/event-stream',
        );
      }
      const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/json') {
        return jsonError(res, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
      }
    }
    const raw = options.body;
    const messages = (Array.isArray(raw) ? raw : [raw]) as unknown[];
    const kinds = messages.map(jsonRpcKind);
    if (!messages.length || kinds.includes(undefined)) {
      return jsonError(res, 400, -32700, 'Parse error: Invalid JSON-RPC message');
    }
    const valid = messages as JSONRPCMessage[];
    const initializing = valid.some((m) => 'method' in m && m.method === 'initialize' && 'id' in m);
    if (initializing) {
      if (this.initialized && this.sessionId !== undefined) {
        return jsonError(res, 400, -32600, 'Invalid Request: Server already initialized');
      }
      if (valid.length > 1) {
        return jsonError(res, 400, -32600, 'Invalid Request: Only one initialization request is allowed');
      }
      this.sessionId = this.options.sessionIdGenerator?.();
      this.initialized = true;
      const init = valid.find((m) => 'method' in m && m.method === 'initialize') as {
        params?: { protocolVersion?: unknown };
      };
      const asked = init.params?.protocolVersion;
      if (typeof asked === 'string') this.version = asked;
    } else {
      const problem = this.checkSession(req);
      if (problem) return jsonError(res, ...problem);
    }
    // the Authorization header's bearer token reaches the handlers as ctx.http.authInfo (the human's token
    // lets aiti_hello take any agent id); nothing else of the HTTP request is theirs to read
    const bearer = bearerOf(req.headers.authorization);
    const extra =
      bearer === undefined ? {} : { authInfo: { token: bearer, clientId: '', scopes: [] } satisfies AuthInfo };
    const requests = valid.filter((_, i) => kinds[i] === 'request') as Array<JSONRPCMessage & { id: RequestId }>;
    if (!requests.length) {
      res.writeHead(202).end();
      for (const message of valid) this.onmessage?.(message, extra);
      return;
    }
    const ids = requests.map((r) => r.id);
    const calls = requests.every((r) => 'method' in r && r.method === 'tools/call');
    const key = this.sessionId !== undefined ? postStreamKey(ids, calls) : undefined;
    const exchange: PostExchange = new PostExchange({
      ids,
      primes: takesEmptyEvents(this.versionOf(req)),
      headers: this.sessionId ? { 'mcp-session-id': this.sessionId } : {},
      streamable: options.streamable ?? true,
      keepAliveMs: this.options.keepAliveMs,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(key !== undefined ? { key } : {}),
      onGone: () => this.forget(exchange, key),
    });
    for (const id of ids) this.exchanges.set(id, exchange);
    if (key !== undefined) this.streams.set(key, exchange);
    const served = exchange.serve(res);
    for (const message of valid) this.onmessage?.(message, extra);
    await served;
  }

  private async get(req: IncomingMessage, res: ServerResponse, options: ExchangeOptions): Promise<void> {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return jsonError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const problem = this.checkSession(req);
    if (problem) return jsonError(res, ...problem);
    const last = req.headers['last-event-id'];
    const origin = typeof last === 'string' ? streamOrigin(last) : undefined;
    if (origin && origin.key !== GET_STREAM) return this.resume(req, res, origin, options.limits);
    if (this.stream) return jsonError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new SseWriter(
      res,
      this.options.keepAliveMs,
      options.limits,
      GET_STREAM,
      takesEmptyEvents(this.versionOf(req)),
    );
    this.stream = stream;
    stream.open(this.sessionId ? { 'mcp-session-id': this.sessionId } : {});
    options.onStreamOpen?.();
    await stream.ended;
    if (this.stream === stream) this.stream = undefined;
  }

  /**
   * A session restored after a restart: its SDK server hears the client's own initialize again (its answer goes
   * nowhere), so it knows the client's capabilities as before.
   */
  replayInitialize(params: Record<string, unknown>): void {
    this.onmessage?.({ jsonrpc: '2.0', id: RESTORE_ID, method: 'initialize', params });
    this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /**
   * A GET with the Last-Event-ID of a POST's stream: the client's stream broke before its answers came (the
   * network, or the bridge restarting). A stream of this run that is still kept gets the new response; one whose
   * answers are gone (another run's, or given up) is answered at once, each call with an error result saying so,
   * and closed — so the client's call ends now instead of at its own time-out.
   */
  private async resume(
    req: IncomingMessage,
    res: ServerResponse,
    origin: StreamOrigin,
    limits?: LimitCounters,
  ): Promise<void> {
    const kept = isThisRun(origin) ? this.streams.get(origin.key) : undefined;
    if (kept) return kept.resume(res);
    return answerLost(res, origin, {
      primes: takesEmptyEvents(this.versionOf(req)),
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      ...(limits ? { limits } : {}),
    });
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const problem = this.checkSession(req);
    if (problem) return jsonError(res, ...problem);
    try {
      this.options.onsessionclosed?.();
      res.writeHead(200).end();
    } finally {
      await this.close();
    }
  }

  /** The protocol version a request speaks: its header, else what the client asked for at initialize. */
  private versionOf(req: IncomingMessage): string | undefined {
    const header = req.headers['mcp-protocol-version'];
    return typeof header === 'string' ? header : this.version;
  }

  /** The SDK's checks: a session's requests carry its id, and a protocol version it supports. */
  private checkSession(req: IncomingMessage): Refusal | undefined {
    if (this.options.sessionIdGenerator) {
      if (!this.initialized) return [400, -32000, 'Bad Request: Server not initialized'];
      const id = req.headers['mcp-session-id'];
      if (!id) return [400, -32000, 'Bad Request: Mcp-Session-Id header is required'];
      if (id !== this.sessionId) return [404, -32001, 'Session not found'];
    }
    const version = req.headers['mcp-protocol-version'];
    if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      return [
        400,
        -32000,
        `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`,
      ];
    }
    return undefined;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const isAnswer = 'id' in message && ('result' in message || 'error' in message);
    const related = isAnswer ? message.id : options?.relatedRequestId;
    if (related === undefined) {
      // a notification or request of the server's own: the GET stream, or nowhere (there is no replay store)
      this.stream?.event(message);
      return Promise.resolve();
    }
    const exchange = this.exchanges.get(related);
    // the client went away, the session closed, or it is a restored session's replayed initialize: nobody reads it
    if (!exchange) return Promise.resolve();
    if (isAnswer) {
      this.exchanges.delete(related);
      exchange.answer(related, message);
    } else exchange.event(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.stream?.end();
    for (const [id, exchange] of [...this.exchanges]) {
      this.exchanges.delete(id);
      exchange.answer(id, {
        jsonrpc: '2.0',
        id,
        error: { code: SESSION_ENDED, message: 'the MCP session ended before this call was answered' },
      });
      exchange.close();
    }
    this.streams.clear();
    this.onclose?.();
    return Promise.resolve();
  }

  /** The exchange is done with: answered, or broken and not resumed in time. */
  private forget(exchange: PostExchange, key: string | undefined): void {
    for (const id of exchange.ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
    if (key !== undefined && this.streams.get(key) === exchange) this.streams.delete(key);
  }
}

/** A refused HTTP request: the arguments of jsonError. */
type Refusal = [status: number, code: number, message: string];

/** The JSON-RPC error body of a refused HTTP request: it answers no single request, so its id is null. */
export function jsonRpcErrorBody(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null } as const;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  const body = JSON.stringify(jsonRpcErrorBody(code, message));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * Answers the resume of a POST stream whose answers are gone: each of its calls gets an error result saying so, and
 * the stream ends — so the client's call ends now instead of at its own time-out. Also for a session the bridge
 * does not know (one a restart forgot): the official SDK client gives up a resume refused twice but leaves its
 * call waiting, so a 404 there would hang it.
 */
export async function answerLost(
  res: ServerResponse,
  origin: StreamOrigin,
  options: { primes: boolean; sessionId?: string; limits?: LimitCounters },
): Promise<void> {
  const stream = new SseWriter(res, 0, options.limits, origin.key, options.primes);
  stream.open(options.sessionId ? { 'mcp-session-id': options.sessionId } : {});
  for (const id of origin.ids ?? []) {
    stream.event(
      origin.calls
        ? { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: LOST }], isError: true } }
        : { jsonrpc: '2.0', id, error: { code: SESSION_ENDED, message: LOST } },
    );
  }
  stream.end();
  await stream.ended;
}
