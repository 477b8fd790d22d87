import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as TlsAgent, request as httpsRequest } from 'node:https';
import { SESSION_HEADER, SHIM_HEADER } from '../protocol/headers.js';
import { parseMessage, type JsonRpcId, type JsonRpcMessage } from './jsonrpc.js';
import { SseParser } from '../protocol/sse.js';

/** Why a message could not reach the bridge. */
export type UpstreamFailure = 'down' | 'session-lost' | 'auth' | 'other';

export class UpstreamError extends Error {
  constructor(
    readonly kind: UpstreamFailure,
    message: string,
    /** the request may have reached the bridge before the connection broke (so it must not be sent again) */
    readonly reached = false,
  ) {
    super(message);
  }
}

/**
 * Failures that prove the request did not reach the bridge whole, so sending it again is safe: the connection was
 * never made, or the write itself failed (EPIPE: also what a kept-alive socket the bridge had already closed gives).
 */
const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

export interface SessionOptions {
  /** the MCP endpoint, e.g. http://127.0.0.1:8777/mcp/mcp */
  endpoint: URL;
  /** a Unix socket to reach the endpoint through (AITI_BRIDGE_URL=unix:…) */
  socketPath?: string;
  token?: string;
  onmessage: (message: JsonRpcMessage) => void;
  /** the session broke (its stream ended or failed): the bridge stopped or restarted */
  onbroken: (error: Error) => void;
}

/**
 * One MCP Streamable HTTP session with the bridge, the client side, on Node's own http client with kept-alive
 * sockets: POST each message (its answer comes back as JSON or as an event stream), and one GET stream for what
 * the bridge sends on its own (pushes, sampling). Kept small on purpose, so the shim never loads the MCP SDK (nor
 * fetch, whose first use alone costs more than a call).
 */
export class BridgeSession {
  sessionId?: string;
  protocolVersion?: string;
  private readonly agent: Agent;
  /** https for a remote listener with --tls-cert (NODE_EXTRA_CA_CERTS names a private CA such as mkcert's) */
  private readonly request: typeof httpRequest;
  /** the GET stream and the POST answers being read: stopped when the session broke or was dropped */
  private readonly reading = new Set<IncomingMessage>();
  private stream?: ClientRequest;
  /**
   * POSTs still waiting for their headers: stopped only when the shim ends the session itself. A session dropped
   * because its stream broke leaves them running, so each learns from its own socket whether it reached the bridge
   * (and is never sent twice) instead of being cut off and counted as never sent.
   */
  private readonly posts = new Set<ClientRequest>();
  private broken = false;
  /** each request's POST until its answer ended: a 2026-07-28 request is cancelled by closing it */
  private readonly byId = new Map<JsonRpcId, ClientRequest>();
  private readonly requestOf = new WeakMap<IncomingMessage, ClientRequest>();
  /** POSTs closed on purpose: their answer stream ending early is not the bridge going away */
  private readonly cancelled = new WeakSet<ClientRequest>();

  constructor(private readonly options: SessionOptions) {
    const tls = options.endpoint.protocol === 'https:';
    this.agent = tls ? new TlsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
    this.request = tls ? httpsRequest : httpRequest;
  }

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { [SHIM_HEADER]: 'stdio' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    // a 2026-07-28 request names the session it speaks for in SESSION_HEADER instead, and its own version
    if (this.sessionId && !extra[SESSION_HEADER]) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion;
    return { ...headers, ...extra };
  }

  /**
   * Sends one message; resolves once the bridge took it (an answer may still be streaming back). `headers` add to
   * the usual ones (a 2026-07-28 request names its method and version in headers too).
   */
  async send(message: JsonRpcMessage, headers: Record<string, string> = {}): Promise<void> {
    const body = JSON.stringify(message);
    let res: IncomingMessage;
    try {
      res = await this.exchange(
        'POST',
        { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body,
        message.id,
      );
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // only a known "never connected" code proves the bridge did not get it; a socket that died after connecting
      // (the bridge killed before its answer's headers) may have delivered it, and sending it again could act twice
      const reached = code === undefined || !NOT_SENT.has(code);
      throw new UpstreamError('down', code ?? (error as Error).message, reached);
    }
    const sessionId = res.headers['mcp-session-id'];
    if (typeof sessionId === 'string' && !this.sessionId) this.sessionId = sessionId;
    const status = res.statusCode ?? 0;
    const type = res.headers['content-type'] ?? '';
    if (status < 200 || status > 299) {
      const text = await readText(res).catch(() => '');
      throw new UpstreamError(failureOf(status), `HTTP ${status}${text ? `: ${text.slice(0, 300)}` : ''}`);
    }
    if (type.includes('text/event-stream')) {
      this.read(res, 'post');
    } else if (type.includes('application/json')) {
      const text = await readText(res);
      const parsed: unknown = text ? JSON.parse(text) : [];
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const answer = parseMessage(JSON.stringify(item));
        if (answer) this.options.onmessage(answer);
      }
    } else res.resume();
  }

  /**
   * Sends one 2026-07-28 request of the client as it came (its envelope says who asks), on behalf of this session
   * (SESSION_HEADER) rather than in it: the bridge answers it in that revision's own form.
   */
  async sendModern(message: JsonRpcMessage): Promise<void> {
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    const version = meta?.['io.modelcontextprotocol/protocolVersion'];
    const name = message.params?.name ?? message.params?.uri;
    await this.send(message, {
      ...(typeof version === 'string' ? { 'mcp-protocol-version': version } : {}),
      ...(message.method ? { 'mcp-method': message.method } : {}),
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      ...(this.sessionId ? { [SESSION_HEADER]: this.sessionId } : {}),
    });
  }

  /** Cancels a 2026-07-28 request the way that revision does over HTTP: its POST and answer stream are closed. */
  cancel(id: JsonRpcId): void {
    const req = this.byId.get(id);
    if (!req) return;
    this.cancelled.add(req);
    req.destroy();
  }

  /** Opens the GET stream the bridge sends pushes and its own requests on. */
  async openStream(): Promise<void> {
    let res: IncomingMessage;
    try {
      res = await this.exchange('GET', { accept: 'text/event-stream' });
    } catch (error) {
      throw new UpstreamError('down', (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
    const status = res.statusCode ?? 0;
    // 405: this bridge offers no stream; pushes then come only with answers
    if (status === 405) {
      res.resume();
      return;
    }
    if (status !== 200) {
      res.resume();
      throw new UpstreamError(failureOf(status), `the bridge refused its event stream (HTTP ${status})`);
    }
    this.read(res, 'get');
  }

  /**
   * One request; resolves with the response once its headers came. It leaves after the I/O already waiting
   * (setImmediate), so a kept-alive socket the bridge closed meanwhile is seen closed before it is written to.
   */
  private async exchange(
    method: string,
    headers: Record<string, string>,
    body?: string,
    id?: JsonRpcId,
  ): Promise<IncomingMessage> {
    await new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve, reject) => {
      const endpoint = this.options.endpoint;
      const req = this.request(endpoint, {
        method,
        agent: this.agent,
        ...(this.options.socketPath ? { socketPath: this.options.socketPath } : {}),
        headers: this.headers(
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ),
      });
      if (method === 'POST') this.posts.add(req);
      else if (method === 'GET') this.stream = req;
      if (id !== undefined) {
        this.byId.set(id, req);
        req.once('close', () => this.byId.get(id) === req && this.byId.delete(id));
      }
      req.on('response', (res) => {
        this.posts.delete(req);
        this.requestOf.set(res, req);
        resolve(res);
      });
      req.on('error', (error) => {
        this.posts.delete(req);
        reject(error);
      });
      req.end(body);
    });
  }

  private read(res: IncomingMessage, kind: 'post' | 'get'): void {
    if (this.broken && kind === 'get') {
      res.destroy();
      return;
    }
    this.reading.add(res);
    const parser = new SseParser();
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      for (const event of parser.push(chunk)) {
        if (event.event !== 'message') continue;
        const message = parseMessage(event.data);
        if (message) this.options.onmessage(message);
      }
    });
    // a POST's stream ends after its answer; the GET stream ends only with the session
    res.on('end', () => {
      this.reading.delete(res);
      if (kind === 'get') this.fail(new Error('the bridge closed the event stream'));
    });
    res.on('error', (error) => {
      this.reading.delete(res);
      const req = this.requestOf.get(res);
      if (!(req && this.cancelled.has(req))) this.fail(error);
    });
    res.on('close', () => {
      this.reading.delete(res);
      const req = this.requestOf.get(res);
      if (!res.complete && !(req && this.cancelled.has(req))) this.fail(new Error('the bridge closed the connection'));
    });
  }

  private fail(error: Error): void {
    if (this.broken) return;
    this.close();
    this.options.onbroken(error);
  }

  /** Ends the session on the bridge (the agent shows offline at once), then stops its streams. */
  async terminate(): Promise<void> {
    if (this.sessionId && !this.broken) {
      await new Promise<void>((resolve) => {
        const req = this.request(this.options.endpoint, {
          method: 'DELETE',
          agent: this.agent,
          ...(this.options.socketPath ? { socketPath: this.options.socketPath } : {}),
          headers: this.headers({}),
          timeout: 2000,
        });
        req.on('response', (res) => res.resume().on('end', resolve).on('error', resolve));
        req.on('timeout', () => req.destroy());
        req.on('error', () => resolve());
        req.end();
      });
    }
    for (const req of this.posts) req.destroy();
    this.posts.clear();
    this.close();
    this.agent.destroy();
  }

  /** Stops the streams without telling the bridge (it is gone, or forgot the session). */
  close(): void {
    this.broken = true;
    this.stream?.destroy();
    for (const res of this.reading) res.destroy();
    this.reading.clear();
    // POSTs in flight finish on their own; the kept-alive sockets are unref'd and close with the bridge's timeout
  }
}

function readText(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    res.on('end', () => resolve(text));
    res.on('error', reject);
  });
}

function failureOf(status: number): UpstreamFailure {
  if (status === 404) return 'session-lost';
  if (status === 401) return 'auth';
  if (status === 502 || status === 503 || status === 504) return 'down';
  return 'other';
}
