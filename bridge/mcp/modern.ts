import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  classifyInboundRequest,
  createMcpHandler,
  type AuthInfo,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import type { BridgeContext } from '../context.js';
import type { Agent, AgentTransport } from '../agents/registry.js';
import { createMcpServer } from './server.js';
import { bearerOf } from './bearer.js';
import type { McpSession } from './sessions.js';

/** How many client names' agents the bridge keeps (ModernEndpoint.agentOf). */
const CLIENT_NAMES = 256;

/** Who a 2026-07-28 request speaks for, decided by the route before the SDK's handler runs. */
export interface ModernCaller {
  /** the agent id the request names (X-Aiti-Agent, checked), or its agent token's */
  named?: string;
  boundAgent?: string;
  transport: AgentTransport;
  /** the 2025-era session the stdio shim keeps for this client (X-Aiti-Session): the request speaks for it */
  session?: McpSession;
}

/**
 * Whether a POST body is a 2026-07-28 request (or one the modern path must refuse): the SDK's own classification,
 * run on the body the route already parsed, so 2025-era traffic never builds a Web Request.
 */
export function isModern(headers: IncomingHttpHeaders, body: unknown): boolean {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const version = header('mcp-protocol-version');
  const method = header('mcp-method');
  const name = header('mcp-name');
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    ...(version !== undefined ? { protocolVersionHeader: version } : {}),
    ...(method !== undefined ? { mcpMethodHeader: method } : {}),
    ...(name !== undefined ? { mcpNameHeader: name } : {}),
    body,
  });
  // the modern path owns its refusals (a missing or malformed envelope, headers that disagree with the body); a
  // body that is no JSON-RPC message at all, with no claim, keeps the 2025 transport's own answer
  if (outcome.kind === 'modern') return true;
  if (outcome.kind === 'legacy') return false;
  return outcome.rung !== 'jsonrpc-shape' || carriesClaim(body);
}

function carriesClaim(body: unknown): boolean {
  const params = (body as { params?: { _meta?: Record<string, unknown> } } | null)?.params;
  return Boolean(params?._meta && 'io.modelcontextprotocol/protocolVersion' in params._meta);
}

/**
 * The 2026-07-28 leg of `/mcp/mcp`: every request carries its own protocol version, client info and capabilities
 * (`_meta`), and is served by a fresh MCP server from the SDK's `createMcpHandler` (legacy traffic never reaches
 * it: the 2025-era session transport serves that). A request speaks for the agent its route decided; the identity
 * never depends on a protocol session.
 */
export class ModernEndpoint {
  private readonly handler: McpHttpHandler;
  private readonly callers = new WeakMap<Request, ModernCaller>();
  /** the agent id of each client name that made a 2026-07-28 request without naming one (agentOf) */
  private readonly byClient = new Map<string, string>();

  constructor(
    private readonly bridge: BridgeContext,
    options: { bodyLimit: number },
  ) {
    this.handler = createMcpHandler(
      ({ requestInfo }) => {
        const caller = (requestInfo && this.callers.get(requestInfo)) ?? { transport: 'stateless' as const };
        return this.serverFor(caller);
      },
      {
        legacy: 'reject',
        // an event stream from the start: its headers leave at once, so a caller waiting on them (the stdio shim
        // sends in order) never waits for a question to the human, and the keep-alive runs from the start
        responseMode: 'sse',
        keepAliveMs: bridge.config.pingMs,
        maxRequestBodySize: options.bodyLimit,
        onerror: (error) => bridge.log.child('mcp').debug('2026-07-28 request refused:', error.message),
      },
    );
  }

  /** Serves one POST whose body the route already read; the answer (JSON or an event stream) goes to `res`. */
  async serve(
    url: URL,
    headers: IncomingHttpHeaders,
    body: unknown,
    res: ServerResponse,
    caller: ModernCaller,
  ): Promise<void> {
    const abort = new AbortController();
    res.once('close', () => abort.abort());
    const request = new Request(url, {
      method: 'POST',
      headers: webHeaders(headers),
      body: JSON.stringify(body),
      signal: abort.signal,
    });
    this.callers.set(request, caller);
    const bearer = bearerOf(headers.authorization);
    const authInfo: AuthInfo | undefined =
      bearer === undefined ? undefined : { token: bearer, clientId: '', scopes: [] };
    const response = await this.handler.fetch(request, { parsedBody: body, ...(authInfo ? { authInfo } : {}) });
    await writeResponse(response, res);
  }

  close(): Promise<void> {
    return this.handler.close();
  }

  private serverFor(caller: ModernCaller) {
    if (caller.session) return createMcpServer(caller.session.connection(true));
    const bridge = this.bridge;
    let agent: Agent | undefined;
    let client: string | undefined;
    return createMcpServer({
      bridge,
      agent: (clientName) => {
        client = clientName;
        return (agent ??= this.agentOf(caller, clientName));
      },
      bindAgent: async (agentId) => {
        // the client's later requests speak for the id it chose (see agentOf)
        if (caller.boundAgent === undefined && caller.named === undefined) this.remember(client, agentId);
        return (agent = bridge.agents.ensure(agentId, { transport: caller.transport }));
      },
      closed: new AbortController().signal,
      stateless: true,
      modern: true,
      ...(caller.boundAgent !== undefined ? { boundAgent: caller.boundAgent } : {}),
    });
  }

  /** Keeps a client name's agent id; the oldest names go first past CLIENT_NAMES (any string can be a name). */
  private remember(clientName: string | undefined, agentId: string): void {
    const key = clientName ?? '';
    this.byClient.delete(key);
    this.byClient.set(key, agentId);
    if (this.byClient.size > CLIENT_NAMES) this.byClient.delete(this.byClient.keys().next().value ?? key);
  }

  /**
   * The agent of a request that named none by header: its agent token's; else the id its client took with
   * aiti_hello or was given on its first request (the client's own name, `claude-code`, or `claude-code-2` while a
   * session holds that), kept by client name while the bridge runs. With no session in this revision, the client's
   * name is all that tells two requests apart: two clients of one name share an agent, and a client that wants an
   * id only it can speak for sends X-Aiti-Agent and X-Aiti-Agent-Key, or goes through the stdio shim.
   */
  private agentOf(caller: ModernCaller, clientName: string | undefined): Agent {
    const agents = this.bridge.agents;
    let id = caller.boundAgent ?? caller.named ?? this.byClient.get(clientName ?? '');
    if (id === undefined) {
      id = agents.idFor(
        clientName,
        (candidate) => this.bridge.claims.hasKey(candidate) || this.bridge.agentTokens.bindsName(candidate),
      );
      this.remember(clientName, id);
    }
    return agents.ensure(id, { transport: caller.transport, ...(clientName ? { client: clientName } : {}) });
  }
}

function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':')) continue;
    out.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return out;
}

/** A Web Response onto Node's response: status, headers, then the body as it streams (SSE flushes per event). */
async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const body = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
  await new Promise<void>((resolve) => {
    body.on('error', () => resolve());
    res.once('close', () => {
      body.destroy();
      resolve();
    });
    body.pipe(res);
    body.once('end', () => resolve());
  });
}
