import type { Logger } from '../log.js';
import { CLIENT_TIMEOUT_MS } from '../protocol/headers.js';
import { impostorText, provePeer } from '../prove-peer.js';
import { BridgeSession, UpstreamError } from './bridge-session.js';
import {
  errorResponse,
  isNotification,
  isRequest,
  isResponse,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './jsonrpc.js';
import { initializeResult, type ServerSnapshot } from './tools-json.js';
import { discoverFromBridge, initializeFor, isModernMessage, modernAnswer, reachesModernClient } from './modern.js';

/** Where the shim's own messages to the client go (the stdio channel). */
export interface ClientSide {
  send(message: JsonRpcMessage): Promise<void>;
}

export interface ForwarderOptions {
  /** the MCP endpoint, e.g. http://127.0.0.1:8777/mcp/mcp */
  endpoint: URL;
  /** a Unix socket to reach it through (AITI_BRIDGE_URL=unix:…) */
  socketPath?: string;
  /** how to name the bridge to a person (default: the endpoint's origin) */
  where?: string;
  /** the agents' token: sent only to a bridge that just proved it holds it */
  token?: string;
  log: Logger;
  snapshot: ServerSnapshot;
  /** pause between attempts while the bridge is down */
  retryMs?: number;
  /** how long the client waits for a tool call, as its settings say (register/client-limits.ts), by its name */
  clientTimeoutMs?: (clientName: string | undefined) => Promise<number | undefined>;
}

const REINIT_PREFIX = 'aiti-shim-reinit-';
/** How long a `server/discover` waits for the bridge's own answer before the build-time one is given. */
const DISCOVER_WAIT_MS = 1000;

/**
 * What the bridge itself sends to a client on its own (mcp/server.ts, mcp/push-links.ts, the SDK's own
 * cancellation of a sampling request that timed out). Anything else that comes down the wire is not the bridge's
 * to say (an `elicitation/create` asking for a password, a `roots/list`) and never reaches the client.
 */
const RELAYED_REQUESTS = new Set(['sampling/createMessage']);
const RELAYED_NOTIFICATIONS = new Set([
  'notifications/progress',
  'notifications/cancelled',
  'notifications/claude/channel',
  'notifications/tools/list_changed',
]);
const BROKEN_CALL =
  'the connection to the bridge broke while this call was running (the bridge stopped or restarted), so its answer is lost; call again';

/**
 * Forwards MCP messages between the client (stdio) and the bridge (Streamable HTTP), both ways: every message of
 * the client, and of the bridge its answers and what the bridge sends on its own (sampling, progress,
 * claude/channel; RELAYED_* above). With a token, each session opens only after the bridge proved it holds that
 * token; when what answers cannot, the shim stops and says so on every call. The client never waits for the bridge to
 * start: `initialize` (and `tools/list` until a bridge answers) come from this version's snapshot at once, and the
 * bridge session is opened in the background by replaying the client's own initialize, again after a bridge
 * restart, so the client never notices. A call while no bridge answers gets an error saying how to start one.
 */
export class ShimForwarder {
  private session?: BridgeSession;
  private connecting?: Promise<BridgeSession | undefined>;
  private init?: JsonRpcRequest;
  private initialized?: JsonRpcMessage;
  private readonly initializedSent = new WeakSet<BridgeSession>();
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  /** why the last attempt to reach the bridge failed (undefined while it answers) */
  private failure?: UpstreamError;
  private retryTimer?: NodeJS.Timeout;
  private reinits = 0;
  /** set when what answers on the bridge's address could not prove it holds the token: the shim stopped */
  private impostor?: string;
  /** methods the bridge sent that are not relayed, each told on stderr once */
  private readonly refusedMethods = new Set<string>();
  private readonly replays = new Map<string, (message: JsonRpcMessage) => void>();
  /**
   * client requests sent up and not answered yet, with the session they went to; `accepted` once the bridge took
   * them (before that, a broken session means the request is simply sent again)
   */
  private readonly inflight = new Map<JsonRpcId, { session: BridgeSession; accepted: boolean }>();
  private readonly retryMs: number;
  /** the client speaks the 2026-07-28 revision (it sent no initialize, and envelopes on its requests) */
  private modern = false;
  /** how long the client waits for a tool call, when its settings say (learnTimeout) */
  private clientTimeout: Promise<number | undefined> = Promise.resolve(undefined);

  constructor(
    private readonly client: ClientSide,
    private readonly options: ForwarderOptions,
  ) {
    this.retryMs = options.retryMs ?? 2000;
  }

  private get log(): Logger {
    return this.options.log;
  }

  private get where(): string {
    return this.options.where ?? this.options.endpoint.origin;
  }

  /** One message from the client. */
  receive(message: JsonRpcMessage): void {
    if (isRequest(message) && message.method === 'server/discover') {
      void this.discover(message);
      return;
    }
    if (isRequest(message) && message.method === 'initialize') {
      this.modern = false;
      this.init = message;
      this.learnTimeout(message);
      this.reply(message.id, initializeResult(this.options.snapshot, message.params));
      this.connectSoon(0);
      return;
    }
    if (message.method === 'notifications/initialized') {
      this.initialized = message;
      if (this.session && !this.initializedSent.has(this.session)) {
        this.initializedSent.add(this.session);
        this.enqueue(message);
      }
      return;
    }
    if (!this.init && isRequest(message) && isModernMessage(message)) {
      // a 2026-07-28 client: no initialize comes, so the bridge session opens with what its envelope says
      this.modern = true;
      this.init = initializeFor(message);
      this.learnTimeout(this.init);
      this.initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
      this.connectSoon(0);
    }
    if (isRequest(message) && !this.session) {
      // answered here while no bridge session is open, so the client's start-up never waits for the bridge
      if (message.method === 'ping') return this.reply(message.id, {});
      const snapshot = this.options.snapshot;
      if (message.method === 'tools/list' && this.modern && snapshot.modernTools) {
        return this.reply(message.id, snapshot.modernTools);
      }
      if (message.method === 'tools/list' && !this.modern && snapshot.tools) {
        return this.reply(message.id, { tools: snapshot.tools });
      }
    }
    this.enqueue(message);
  }

  /** Messages go up in the order the client sent them. */
  private enqueue(message: JsonRpcMessage): void {
    this.queue = this.queue.then(async () => this.forward(await this.withTimeout(message)));
  }

  /** Starts reading, from the client's own settings, how long it waits for a tool call (once per client). */
  private learnTimeout(init: JsonRpcRequest): void {
    const info = init.params?.clientInfo as { name?: unknown } | undefined;
    const name = typeof info?.name === 'string' ? info.name : undefined;
    this.clientTimeout = (this.options.clientTimeoutMs?.(name) ?? Promise.resolve(undefined)).catch(() => undefined);
  }

  /** A tools/call carries how long its client waits for it, when the client's settings say: asks answer before that. */
  private async withTimeout(message: JsonRpcMessage): Promise<JsonRpcMessage> {
    if (message.method !== 'tools/call' || !message.params) return message;
    const timeoutMs = await this.clientTimeout;
    if (timeoutMs === undefined) return message;
    const meta = (message.params._meta ?? {}) as Record<string, unknown>;
    return { ...message, params: { ...message.params, _meta: { ...meta, [CLIENT_TIMEOUT_MS]: timeoutMs } } };
  }

  private async forward(message: JsonRpcMessage): Promise<void> {
    for (let attempt = 0; attempt < 3 && !this.closed; attempt++) {
      const session = await this.ensureSession();
      if (!session) {
        if (isRequest(message)) this.answerOffline(message);
        return;
      }
      try {
        const entry = { session, accepted: false };
        if (isRequest(message)) this.inflight.set(message.id, entry);
        if (this.modern && message.method === 'notifications/cancelled') {
          const id = message.params?.requestId;
          if (typeof id === 'string' || typeof id === 'number') {
            this.inflight.delete(id);
            session.cancel(id);
          }
        } else if (this.modern && isRequest(message)) await session.sendModern(message);
        else await session.send(message);
        entry.accepted = true;
        return;
      } catch (error) {
        // this message is sent again (or answered) below: it is not lost with the dropped session
        if (isRequest(message)) this.inflight.delete(message.id);
        const failure = asUpstreamError(error);
        if (failure.reached && isRequest(message)) {
          // the bridge may be running it: its answer is lost, and running it twice could click twice
          this.drop(session, failure);
          this.reply(message.id, undefined, BROKEN_CALL);
          return;
        }
        if (failure.kind === 'session-lost' || failure.kind === 'down') {
          this.drop(session, failure);
          continue;
        }
        const text = failure.kind === 'auth' ? authText() : `the bridge refused the message: ${failure.message}`;
        this.log.error(text);
        if (isRequest(message)) this.reply(message.id, undefined, text);
        return;
      }
    }
  }

  /** The open bridge session, or a new one when the bridge answers now; undefined while it does not. */
  private ensureSession(): Promise<BridgeSession | undefined> {
    if (this.session) return Promise.resolve(this.session);
    if (this.impostor) return Promise.resolve(undefined);
    this.connecting ??= this.open().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  /** Opens a session by replaying the client's initialize (and initialized), then the bridge's event stream. */
  private async open(): Promise<BridgeSession | undefined> {
    const init = this.init;
    if (!init || this.closed || !(await this.peerProven())) return undefined;
    let failOpen: (error: Error) => void = () => undefined;
    const brokenWhileOpening = new Promise<never>((_, reject) => (failOpen = reject));
    brokenWhileOpening.catch(() => undefined);
    const session: BridgeSession = new BridgeSession({
      endpoint: this.options.endpoint,
      ...(this.options.socketPath ? { socketPath: this.options.socketPath } : {}),
      ...(this.options.token ? { token: this.options.token } : {}),
      onmessage: (message) => this.fromBridge(session, message),
      onbroken: (error) => (session === this.session ? this.broken(session, error) : failOpen(error)),
    });
    try {
      const id = `${REINIT_PREFIX}${++this.reinits}`;
      const answered = new Promise<JsonRpcMessage>((resolve) => this.replays.set(id, resolve));
      await session.send({ ...init, id });
      const answer = await Promise.race([answered, brokenWhileOpening]);
      if (answer.error) throw new UpstreamError('other', `the bridge refused initialize: ${answer.error.message}`);
      const version = (answer.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof version === 'string') session.protocolVersion = version;
      if (this.initialized) {
        this.initializedSent.add(session);
        await session.send(this.initialized);
      }
      await session.openStream();
    } catch (error) {
      session.close();
      this.replays.clear();
      this.wentDown(asUpstreamError(error));
      this.connectSoon(this.retryMs);
      return undefined;
    }
    if (this.closed) {
      await session.terminate();
      return undefined;
    }
    this.session = session;
    if (this.failure) this.log.warn(`connected to the bridge at ${this.where}`);
    this.failure = undefined;
    // the client's initialized may have come while the session was opening
    if (this.initialized && !this.initializedSent.has(session)) {
      this.initializedSent.add(session);
      this.enqueue(this.initialized);
    }
    return session;
  }

  /**
   * Whether the token may go to what answers now: always without a token; with one, only after a proof for a fresh
   * nonce. Nothing answering is "down" (tried again later); a wrong proof stops the shim for good.
   */
  private async peerProven(): Promise<boolean> {
    const token = this.options.token;
    if (!token) return true;
    const address = {
      url: this.options.endpoint,
      ...(this.options.socketPath ? { socketPath: this.options.socketPath } : {}),
    };
    const proof = await provePeer(address, token, 'agent');
    if (proof.kind === 'proven') return true;
    if (proof.kind === 'unreachable') {
      this.wentDown(new UpstreamError('down', proof.why));
      this.connectSoon(this.retryMs);
      return false;
    }
    this.impostor = `${impostorText(this.where, proof.why)}. The shim stopped: restart your MCP client once the bridge runs again`;
    this.log.error(this.impostor);
    return false;
  }

  /** Tries to open a session after `ms`, in the background (pushes reach the client without its next request). */
  private connectSoon(ms: number): void {
    if (this.closed || this.session || this.retryTimer || this.impostor) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.session && !this.closed) void this.ensureSession();
    }, ms);
    this.retryTimer.unref();
  }

  private fromBridge(session: BridgeSession, message: JsonRpcMessage): void {
    if (isResponse(message) && typeof message.id === 'string') {
      const replay = this.replays.get(message.id);
      if (replay) {
        this.replays.delete(message.id);
        replay(message);
        return;
      }
    }
    if (isResponse(message)) {
      // an answer from a session already dropped was answered with an error then
      if (this.inflight.get(message.id)?.session !== session) return;
      this.inflight.delete(message.id);
    } else if (!this.relayed(session, message)) return;
    this.toClient(message);
  }

  /** Every message to the client leaves here, in the form its protocol era reads. */
  private toClient(message: JsonRpcMessage): void {
    const out = this.modern ? modernAnswer(message, this.options.snapshot.serverInfo) : message;
    this.client.send(out).catch((error: unknown) => this.log.warn('cannot write to the client:', error));
  }

  /** Whether a request or notification of the bridge is one the bridge sends; a refused request is answered there. */
  private relayed(session: BridgeSession, message: JsonRpcMessage): boolean {
    const method = message.method ?? '';
    // a 2026-07-28 client hears only about its own calls; the bridge was told it takes nothing else
    if (this.modern && !reachesModernClient(message)) {
      if (isRequest(message))
        session.send(errorResponse(message.id, -32601, `the client does not take "${method}"`)).catch(() => undefined);
      return false;
    }
    if (
      isRequest(message) ? RELAYED_REQUESTS.has(method) : isNotification(message) && RELAYED_NOTIFICATIONS.has(method)
    )
      return true;
    if (!this.refusedMethods.has(method)) {
      this.refusedMethods.add(method);
      this.log.warn(
        `the server at ${this.where} sent "${method}", which the AITI bridge never sends: not passed to the MCP client`,
      );
    }
    if (isRequest(message))
      session
        .send(errorResponse(message.id, -32601, `the AITI shim does not relay "${method}" to the client`))
        .catch(() => undefined);
    return false;
  }

  /** The session's stream broke: the bridge stopped or restarted. Open a new one as soon as it answers. */
  private broken(session: BridgeSession, error: Error): void {
    if (session !== this.session || this.closed) return;
    this.log.debug('bridge stream error:', error);
    this.drop(session, new UpstreamError('down', error.message));
    this.connectSoon(0);
  }

  private drop(session: BridgeSession, failure: UpstreamError): void {
    if (this.session === session) this.session = undefined;
    session.close();
    if (failure.kind === 'down') this.wentDown(failure);
    // requests that went to this session will never be answered: say so at once instead of leaving the client
    // waiting for its own timeout
    for (const [id, sent] of [...this.inflight]) {
      if (sent.session !== session || !sent.accepted) continue;
      this.inflight.delete(id);
      this.reply(id, undefined, BROKEN_CALL);
    }
  }

  private wentDown(failure: UpstreamError): void {
    const first = !this.failure;
    this.failure = failure;
    if (!first) return;
    if (failure.kind === 'auth') this.log.error(authText());
    else if (failure.kind === 'down') {
      this.log.warn(
        `cannot reach the bridge at ${this.where} (${failure.message}); retrying every ${this.retryMs / 1000} s — ${HOW_TO_START}`,
      );
    } else this.log.warn(`cannot open a session with the bridge: ${failure.message}`);
  }

  /** A request that needs the bridge while none answers: a tool call gets a result the agent reads. */
  private answerOffline(request: JsonRpcRequest): void {
    const failure = this.failure;
    const origin = this.where;
    let text: string;
    if (this.impostor) text = this.impostor;
    else if (failure?.kind === 'auth') text = authText();
    else if (failure && failure.kind !== 'down')
      text = `the AITI bridge at ${origin} refused the session: ${failure.message}`;
    else {
      const what = request.method === 'tools/call' ? String(request.params?.name ?? 'the tool') : request.method;
      text = `The AITI bridge is not running at ${origin} (${failure?.message ?? 'no answer'}), so ${what} could not run: ${HOW_TO_START}, then call again.`;
    }
    if (request.method === 'tools/call') {
      this.reply(request.id, { content: [{ type: 'text', text }], isError: true });
    } else this.reply(request.id, undefined, text);
  }

  private reply(id: JsonRpcId, result: unknown, error?: string): void {
    this.toClient(error === undefined ? { jsonrpc: '2.0', id, result } : errorResponse(id, -32000, error));
  }

  /**
   * A 2026-07-28 client's probe: the bridge's own answer when it answers within a second (after proving itself when
   * there is a token to send), else what this version's bridge answered at build time. Either is true of the shim:
   * it speaks both eras whatever the bridge runs.
   */
  private async discover(request: JsonRpcRequest): Promise<void> {
    const proven = !this.options.token || (await this.peerProven());
    const answer = proven
      ? await discoverFromBridge(
          {
            endpoint: this.options.endpoint,
            ...(this.options.socketPath ? { socketPath: this.options.socketPath } : {}),
            ...(this.options.token ? { token: this.options.token } : {}),
          },
          request,
          DISCOVER_WAIT_MS,
        )
      : undefined;
    const result = answer?.result ?? this.options.snapshot.discover;
    if (result) this.reply(request.id, result);
    else this.reply(request.id, undefined, 'this build of the shim has no 2026-07-28 answer and no bridge answered');
  }

  /** The client left: end the bridge session at once (the agent shows offline), then stop. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.retryTimer);
    const session = this.session;
    this.session = undefined;
    await session?.terminate();
  }
}

const HOW_TO_START =
  'start it with "npx @aiti-ai/aiti-bridge" (or open the AITI Bridge desktop app); if it listens elsewhere, set AITI_BRIDGE_URL in this MCP server\'s environment';

function authText(): string {
  return "the bridge requires the agent token on the MCP endpoint (--mcp-auth): run the shim with --mcp-auth, and --data-dir pointing at the bridge's data dir (or AITI_AGENT_TOKEN)";
}

function asUpstreamError(error: unknown): UpstreamError {
  return error instanceof UpstreamError ? error : new UpstreamError('other', (error as Error).message);
}
