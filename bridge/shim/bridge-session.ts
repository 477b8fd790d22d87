import { SHIM_HEADER } from '../protocol/headers.js';
import { parseMessage, type JsonRpcMessage } from './jsonrpc.js';
import { readSse } from './sse.js';

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

/** Connection failures that happen before a byte of the request left: sending it again is safe. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EADDRNOTAVAIL', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface SessionOptions {
  /** the MCP endpoint, e.g. http://127.0.0.1:8777/mcp/mcp */
  endpoint: URL;
  token?: string;
  onmessage: (message: JsonRpcMessage) => void;
  /** the session broke (its stream ended or failed): the bridge stopped or restarted */
  onbroken: (error: Error) => void;
}

/**
 * One MCP Streamable HTTP session with the bridge, the client side, on plain fetch: POST each message (its answer
 * comes back as JSON or as an event stream), and one GET stream for what the bridge sends on its own (pushes,
 * sampling). Kept small on purpose, so the shim never loads the MCP SDK.
 */
export class BridgeSession {
  sessionId?: string;
  protocolVersion?: string;
  private readonly abort = new AbortController();
  private broken = false;

  constructor(private readonly options: SessionOptions) {}

  private headers(extra: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { [SHIM_HEADER]: 'stdio', ...extra };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  /** Sends one message; resolves once the bridge took it (an answer may still be streaming back). */
  async send(message: JsonRpcMessage): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.options.endpoint, {
        method: 'POST',
        headers: this.headers({ 'content-type': 'application/json', accept: 'application/json, text/event-stream' }),
        body: JSON.stringify(message),
        signal: this.abort.signal,
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code;
      // only a known "never connected" code proves the bridge did not get it; a socket that died without a code
      // (the bridge killed before its answer's headers) may have delivered it, and sending it again could act twice
      const reached = code === undefined ? !this.abort.signal.aborted : !NOT_SENT.has(code);
      throw new UpstreamError('down', describeFetchError(error), reached);
    }
    const sessionId = res.headers.get('mcp-session-id');
    if (sessionId && !this.sessionId) this.sessionId = sessionId;
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      throw new UpstreamError(failureOf(res.status), `HTTP ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`);
    }
    const type = res.headers.get('content-type') ?? '';
    if (res.body && type.includes('text/event-stream')) {
      void this.read(res.body, 'post');
    } else if (type.includes('application/json')) {
      const text = await res.text();
      const parsed: unknown = text ? JSON.parse(text) : [];
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const answer = parseMessage(JSON.stringify(item));
        if (answer) this.options.onmessage(answer);
      }
    } else {
      await res.body?.cancel();
    }
  }

  /** Opens the GET stream the bridge sends pushes and its own requests on. */
  async openStream(): Promise<void> {
    let res: Response;
    try {
      res = await fetch(this.options.endpoint, {
        method: 'GET',
        headers: this.headers({ accept: 'text/event-stream' }),
        signal: this.abort.signal,
      });
    } catch (error) {
      throw new UpstreamError('down', describeFetchError(error));
    }
    // 405: this bridge offers no stream; pushes then come only with answers
    if (res.status === 405) return;
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new UpstreamError(failureOf(res.status), `the bridge refused its event stream (HTTP ${res.status})`);
    }
    void this.read(res.body, 'get');
  }

  private async read(body: ReadableStream<Uint8Array>, kind: 'post' | 'get'): Promise<void> {
    try {
      for await (const event of readSse(body)) {
        if (event.event !== 'message') continue;
        const message = parseMessage(event.data);
        if (message) this.options.onmessage(message);
      }
      // a POST's stream ends after its answer; the GET stream ends only with the session
      if (kind === 'get') this.fail(new Error('the bridge closed the event stream'));
    } catch (error) {
      this.fail(error as Error);
    }
  }

  private fail(error: Error): void {
    if (this.broken || this.abort.signal.aborted) return;
    this.broken = true;
    this.abort.abort();
    this.options.onbroken(error);
  }

  /** Ends the session on the bridge (the agent shows offline at once), then stops its streams. */
  async terminate(): Promise<void> {
    if (this.sessionId && !this.broken) {
      await fetch(this.options.endpoint, {
        method: 'DELETE',
        headers: this.headers({}),
        signal: AbortSignal.timeout(2000),
      }).catch(() => undefined);
    }
    this.close();
  }

  /** Stops the streams without telling the bridge (it is gone, or forgot the session). */
  close(): void {
    this.broken = true;
    this.abort.abort();
  }
}

function failureOf(status: number): UpstreamFailure {
  if (status === 404) return 'session-lost';
  if (status === 401) return 'auth';
  if (status === 502 || status === 503 || status === 504) return 'down';
  return 'other';
}

/** `ECONNREFUSED` and the like: what fetch hides in its error's cause. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}
