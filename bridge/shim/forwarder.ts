import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializedNotification,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../log.js';
import { SHIM_HEADER } from '../mcp/routes.js';

export interface ForwarderOptions {
  /** the MCP endpoint, e.g. http://127.0.0.1:8777/mcp/mcp */
  endpoint: URL;
  token?: string;
  log: Logger;
  /** pause between attempts while the bridge is down */
  retryMs?: number;
}

const REINIT_PREFIX = 'aiti-shim-reinit-';

/**
 * Forwards every MCP message between a local client transport (stdio) and the bridge over Streamable HTTP,
 * both ways: requests, responses and notifications, including server→client ones (sampling, progress,
 * claude/channel) that arrive on the bridge's streams. Messages go up in order. While the bridge is down each
 * message waits and is retried; when the bridge lost the session (it restarted), a new session is opened by
 * replaying the client's own initialize, so the client never notices.
 */
export class ShimForwarder {
  private upstream?: StreamableHTTPClientTransport;
  private init?: JSONRPCRequest;
  private initialized?: JSONRPCNotification;
  private queue: Promise<void> = Promise.resolve();
  private sending = false;
  private closed = false;
  private down = false;
  private reinits = 0;
  private readonly replays = new Map<string, (message: JSONRPCMessage) => void>();
  /** client requests sent up and not answered yet, with the session they went to */
  private readonly inflight = new Map<string | number, StreamableHTTPClientTransport>();
  private readonly retryMs: number;

  constructor(
    private readonly client: Transport,
    private readonly options: ForwarderOptions,
  ) {
    this.retryMs = options.retryMs ?? 2000;
    client.onmessage = (message) => {
      this.queue = this.queue.then(() => this.forward(message));
    };
  }

  private get log(): Logger {
    return this.options.log;
  }

  private async forward(message: JSONRPCMessage): Promise<void> {
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) this.init = message;
    if (isInitializedNotification(message)) this.initialized = message;
    while (!this.closed) {
      try {
        const upstream = await this.connect(isInitializeRequest(message));
        this.sending = true;
        if (isJSONRPCRequest(message)) this.inflight.set(message.id, upstream);
        await upstream.send(message);
        this.bridgeIsUp();
        return;
      } catch (error) {
        // this message is sent again (or answered) below: it is not lost with the dropped session
        if (isJSONRPCRequest(message)) this.inflight.delete(message.id);
        const kind = classify(error);
        if (kind === 'session-lost') {
          this.drop();
          continue;
        }
        if (kind === 'down') {
          this.drop();
          this.bridgeIsDown(error);
          await sleep(this.retryMs);
          continue;
        }
        const text =
          kind === 'auth'
            ? 'the bridge requires its token on the MCP endpoint (--mcp-auth): run the shim with --mcp-auth, and AITI_BRIDGE_TOKEN or --data-dir pointing at the bridge data dir'
            : `the bridge refused the message: ${(error as Error).message}`;
        this.log.error(text);
        if (isJSONRPCRequest(message)) {
          await this.client.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: text } });
        }
        return;
      } finally {
        this.sending = false;
      }
    }
  }

  /** The current upstream session, opened (and initialized again when needed) on first use. */
  private async connect(isInit: boolean): Promise<StreamableHTTPClientTransport> {
    if (this.upstream) return this.upstream;
    const headers: Record<string, string> = { [SHIM_HEADER]: 'stdio' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const upstream = new StreamableHTTPClientTransport(this.options.endpoint, { requestInit: { headers } });
    upstream.onmessage = (message) => this.fromBridge(upstream, message);
    upstream.onerror = (error) => this.upstreamFailed(upstream, error);
    await upstream.start();
    this.upstream = upstream;
    try {
      if (!isInit && this.init) await this.replayInit(upstream);
    } catch (error) {
      this.drop();
      throw error;
    }
    return upstream;
  }

  /** The bridge forgot us (restart): open a new session with the client's own initialize, quietly. */
  private async replayInit(upstream: StreamableHTTPClientTransport): Promise<void> {
    if (!this.init) return;
    const id = `${REINIT_PREFIX}${++this.reinits}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => this.replays.set(id, resolve));
    await upstream.send({ ...this.init, id });
    const answer = await answered;
    if (isJSONRPCErrorResponse(answer)) throw new Error(`the bridge refused initialize: ${answer.error.message}`);
    if (this.initialized) await upstream.send(this.initialized);
    this.log.info(`reconnected to the bridge at ${this.options.endpoint.origin} with a new MCP session`);
  }

  private fromBridge(upstream: StreamableHTTPClientTransport, message: JSONRPCMessage): void {
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && typeof message.id === 'string') {
      const replay = this.replays.get(message.id);
      if (replay) {
        this.replays.delete(message.id);
        if (isJSONRPCResultResponse(message)) setVersion(upstream, message.result);
        replay(message);
        return;
      }
    }
    if (isJSONRPCResultResponse(message) && this.init && message.id === this.init.id) {
      setVersion(upstream, message.result);
    }
    if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && message.id !== undefined) {
      this.inflight.delete(message.id);
    }
    this.client.send(message).catch((error: unknown) => this.log.warn('cannot write to the client:', error));
  }

  /**
   * An error outside a send: the GET stream broke (the bridge stopped or restarted). Open a new session in the
   * background so pushes reach the client again without waiting for its next request.
   */
  private upstreamFailed(upstream: StreamableHTTPClientTransport, error: Error): void {
    if (this.sending || upstream !== this.upstream || this.closed) return;
    this.log.debug('bridge stream error:', error);
    this.drop();
    if (!this.init) return;
    this.queue = this.queue.then(() => this.resync());
  }

  private async resync(): Promise<void> {
    while (!this.closed && !this.upstream) {
      try {
        await this.connect(false);
        this.bridgeIsUp();
      } catch (error) {
        if (classify(error) === 'down') this.bridgeIsDown(error);
        else this.log.warn('cannot reopen the bridge session:', error);
        await sleep(this.retryMs);
      }
    }
  }

  private drop(): void {
    const upstream = this.upstream;
    this.upstream = undefined;
    if (upstream) {
      upstream.onerror = undefined;
      upstream.onmessage = undefined;
      void upstream.close().catch(() => undefined);
      this.failInflight(upstream);
    }
  }

  /**
   * Requests that went to a session now dropped will never be answered (the bridge stopped or restarted while
   * running them): answer them with an error at once, instead of leaving the client waiting for its own timeout.
   */
  private failInflight(upstream: StreamableHTTPClientTransport): void {
    for (const [id, sentTo] of [...this.inflight]) {
      if (sentTo !== upstream) continue;
      this.inflight.delete(id);
      const text =
        'the connection to the bridge broke while this call was running (the bridge stopped or restarted), so its answer is lost; call again';
      this.client
        .send({ jsonrpc: '2.0', id, error: { code: -32000, message: text } })
        .catch((error: unknown) => this.log.warn('cannot write to the client:', error));
    }
  }

  private bridgeIsDown(error: unknown): void {
    if (this.down) return;
    this.down = true;
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    this.log.warn(
      `cannot reach the bridge at ${this.options.endpoint.origin} (${cause}); retrying every ${this.retryMs / 1000} s — start it with "aiti-bridge" (or the AITI desktop app), or set AITI_BRIDGE_URL`,
    );
  }

  private bridgeIsUp(): void {
    if (!this.down) return;
    this.down = false;
    this.log.warn(`the bridge at ${this.options.endpoint.origin} answers again`);
  }

  /** The client left: end the bridge session at once (the agent shows offline), then stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const upstream = this.upstream;
    this.upstream = undefined;
    if (upstream?.sessionId) await upstream.terminateSession().catch(() => undefined);
    await upstream?.close().catch(() => undefined);
  }
}

type Failure = 'down' | 'session-lost' | 'auth' | 'other';

function classify(error: unknown): Failure {
  if (error instanceof StreamableHTTPError) {
    if (error.code === 404) return 'session-lost';
    if (error.code === 401) return 'auth';
    if (error.code === 502 || error.code === 503 || error.code === 504) return 'down';
    return 'other';
  }
  // fetch failed: ECONNREFUSED, ECONNRESET, a DNS failure … (TypeError from undici)
  if (error instanceof TypeError) return 'down';
  return 'other';
}

function setVersion(upstream: StreamableHTTPClientTransport, result: unknown): void {
  const version = (result as { protocolVersion?: unknown }).protocolVersion;
  if (typeof version === 'string') upstream.setProtocolVersion(version);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
