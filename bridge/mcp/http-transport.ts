import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { LimitCounters } from '../limits.js';
import { jsonRpcKind } from './jsonrpc-kind.js';

/**
 * A call whose answer is not ready after this many ms gets its headers (an SSE stream) so the client knows the
 * bridge took it: the stdio shim sends its next message only then, and never sends a taken call again. A call
 * answered sooner goes back as one JSON body in one write, which the client reads without an SSE parser.
 */
const QUIET_HEADERS_MS = 20;

const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
} as const;

/** The answer a client gets when its session ends before its call was answered. */
const SESSION_ENDED = -32000;

interface HttpTransportOptions {
  /** makes the session id at initialize; without it the transport serves one stateless request */
  sessionIdGenerator?: () => string;
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
  private closed = false;
  private stream?: SseWriter;
  /** open POST answers, by the ids of the requests they carry */
  private readonly exchanges = new Map<RequestId, PostExchange>();

  constructor(private readonly options: HttpTransportOptions) {}

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
    } else {
      const problem = this.checkSession(req);
      if (problem) return jsonError(res, ...problem);
    }
    const extra = { requestInfo: { headers: req.headers } };
    const requests = valid.filter((_, i) => kinds[i] === 'request') as Array<JSONRPCMessage & { id: RequestId }>;
    if (!requests.length) {
      res.writeHead(202).end();
      for (const message of valid) this.onmessage?.(message, extra);
      return;
    }
    const exchange = new PostExchange(res, {
      ids: requests.map((r) => r.id),
      headers: this.sessionId ? { 'mcp-session-id': this.sessionId } : {},
      streamable: options.streamable ?? true,
      keepAliveMs: this.options.keepAliveMs,
      ...(options.limits ? { limits: options.limits } : {}),
    });
    for (const id of exchange.ids) this.exchanges.set(id, exchange);
    res.once('close', () => this.forget(exchange));
    for (const message of valid) this.onmessage?.(message, extra);
    await exchange.ended;
  }

  private async get(req: IncomingMessage, res: ServerResponse, options: ExchangeOptions): Promise<void> {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return jsonError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const problem = this.checkSession(req);
    if (problem) return jsonError(res, ...problem);
    if (this.stream) return jsonError(res, 409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    const stream = new SseWriter(res, this.options.keepAliveMs, options.limits);
    this.stream = stream;
    stream.open(this.sessionId ? { 'mcp-session-id': this.sessionId } : {});
    options.onStreamOpen?.();
    await stream.ended;
    if (this.stream === stream) this.stream = undefined;
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
    // the client went away, or the session closed: nobody is left to read it
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
    }
    this.onclose?.();
    return Promise.resolve();
  }

  private forget(exchange: PostExchange): void {
    exchange.close();
    for (const id of exchange.ids) if (this.exchanges.get(id) === exchange) this.exchanges.delete(id);
  }
}

/**
 * One SSE response: headers sent at once, events written as they come, a keep-alive comment when quiet, and a
 * reader that stops reading is disconnected once it leaves limits.sseBufferBytes unread.
 */
class SseWriter {
  readonly ended: Promise<void>;
  private keepAlive?: NodeJS.Timeout;
  private corked = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
    private readonly limits?: LimitCounters,
  ) {
    this.ended = new Promise((resolve) =>
      res.once('close', () => {
        clearInterval(this.keepAlive);
        resolve();
      }),
    );
  }

  /** Sends the headers; `now` false leaves them for the first event, to go in the same write. */
  open(headers: Record<string, string>, now = true): void {
    const socket = this.res.socket;
    this.limits?.streamOn(socket);
    socket?.setTimeout(0);
    socket?.setNoDelay(true);
    socket?.setKeepAlive(true);
    this.res.writeHead(200, { ...SSE_HEADERS, ...headers });
    if (now) this.res.flushHeaders();
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(() => this.write(': keepalive\n\n'), this.keepAliveMs);
      this.keepAlive.unref();
    }
  }

  event(message: JSONRPCMessage): void {
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  private write(text: string): void {
    const res = this.res;
    if (res.writableEnded || res.destroyed) return;
    // what one tick writes leaves in one packet
    if (!this.corked) {
      this.corked = true;
      res.cork();
      process.nextTick(() => {
        this.corked = false;
        res.uncork();
      });
    }
    res.write(text);
    if (this.limits && res.writableLength > this.limits.limits.sseBufferBytes) {
      this.limits.refused('sseReaders');
      res.destroy();
    }
  }

  end(): void {
    clearInterval(this.keepAlive);
    if (!this.res.writableEnded) this.res.end();
  }
}

interface ExchangeSetup {
  ids: RequestId[];
  headers: Record<string, string>;
  /** may answer as an SSE stream (else always JSON) */
  streamable: boolean;
  keepAliveMs: number;
  limits?: LimitCounters;
}

/**
 * The answer to one POST that carried requests. Answered within QUIET_HEADERS_MS and with nothing sent before:
 * one JSON body (one write). Otherwise an SSE stream, opened by the first notification for these requests (a
 * progress report) or by the quiet timer, ending after the last answer.
 */
class PostExchange {
  readonly ids: RequestId[];
  readonly ended: Promise<void>;
  private readonly answers = new Map<RequestId, JSONRPCMessage>();
  private sse?: SseWriter;
  private readonly quiet: NodeJS.Timeout;
  private finished = false;
  private resolveEnded: () => void = () => undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly setup: ExchangeSetup,
  ) {
    this.ids = setup.ids;
    this.ended = new Promise((resolve) => (this.resolveEnded = resolve));
    this.quiet = setTimeout(() => this.openHeaders(), QUIET_HEADERS_MS);
  }

  /** A notification or request tied to these requests: it needs the stream. */
  event(message: JSONRPCMessage): void {
    if (this.finished) return;
    const sse = this.openStream(false);
    sse?.event(message);
  }

  answer(id: RequestId, message: JSONRPCMessage): void {
    if (this.finished) return;
    this.answers.set(id, message);
    if (this.sse) this.sse.event(message);
    if (this.answers.size < this.ids.length) return;
    this.finish();
  }

  private finish(): void {
    this.finished = true;
    clearTimeout(this.quiet);
    const res = this.res;
    if (this.sse) this.sse.end();
    else if (!res.writableEnded && !res.destroyed) {
      const answers = this.ids.map((id) => this.answers.get(id));
      const body = JSON.stringify(answers.length === 1 ? answers[0] : answers);
      if (!res.headersSent) {
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...this.setup.headers,
        });
      }
      res.end(body);
    }
    this.resolveEnded();
  }

  /** Quiet too long: the headers go now (SSE when the client takes it, else JSON whose body follows later). */
  private openHeaders(): void {
    if (this.finished || this.res.headersSent) return;
    if (this.openStream(true)) return;
    this.res.writeHead(200, { 'content-type': 'application/json', ...this.setup.headers });
    this.res.flushHeaders();
  }

  private openStream(now: boolean): SseWriter | undefined {
    if (this.sse) return this.sse;
    if (!this.setup.streamable || this.res.headersSent) return undefined;
    this.sse = new SseWriter(this.res, this.setup.keepAliveMs, this.setup.limits);
    this.sse.open(this.setup.headers, now);
    return this.sse;
  }

  /** The client went away before the answer. */
  close(): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.quiet);
    this.sse?.end();
    this.resolveEnded();
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
