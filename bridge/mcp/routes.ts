import { InitializeRequestSchema } from '@modelcontextprotocol/core';
import type { Context } from 'koa';
import type { RouteSetup } from '../http/zones.js';
import { readJson } from '../http/body.js';
import type { BridgeContext } from '../context.js';
import type { AgentTransport } from '../agents/registry.js';
import type { LimitCounters } from '../limits.js';
import { AgentId } from '../protocol/index.js';
import { claimProblem } from '../agents/identity.js';
import { createMcpServer } from './server.js';
import { carriesToken } from './bearer.js';
import { McpSession } from './sessions.js';
import { SESSION_HEADER, SHIM_HEADER } from '../protocol/headers.js';
import { answerLost, HttpTransport, jsonRpcErrorBody } from './http-transport.js';
import { streamOrigin, takesEmptyEvents } from './http-streams.js';
import { isModern, ModernEndpoint } from './modern.js';

/** Larger than the default body limit: page_exec may carry a 1 MB Storage.set value. */
const MCP_BODY_LIMIT = 4 * 1024 * 1024;

/** Stateless calls may name the agent they speak for; otherwise they speak for `stateless`. */
export const AGENT_HEADER = 'x-aiti-agent';
/** …and prove a chosen id with the agentKey its first aiti_hello returned. */
export const AGENT_KEY_HEADER = 'x-aiti-agent-key';

/**
 * `/mcp/mcp` (and `/aiti/mcp/mcp`): Streamable HTTP sessions and stateless calls (README "HTTP surface").
 * A POST `initialize` without a session id creates a session; any other POST without one is stateless.
 */
export const mcpRoutes: RouteSetup = (router, bridge) => {
  const sessions = new Map<string, McpSession>();
  /** A session of this bridge before it restarted: started again under its id, as its client knows it. */
  const restoring = new Map<string, Promise<McpSession | undefined>>();
  // a resumed stream and the next call may come at once: one restore serves both
  const restore = (sessionId: string): Promise<McpSession | undefined> => {
    let pending = restoring.get(sessionId);
    if (!pending) {
      pending = restoreSession(sessionId).finally(() => restoring.delete(sessionId));
      restoring.set(sessionId, pending);
    }
    return pending;
  };
  const restoreSession = async (sessionId: string): Promise<McpSession | undefined> => {
    const stored = bridge.mcpSessions.find(sessionId);
    if (!stored) return undefined;
    const session = new McpSession(
      bridge,
      {
        clientName: stored.clientInfo.name,
        clientVersion: stored.clientInfo.version,
        capabilities: stored.capabilities,
        transport: stored.transport,
        ...(stored.boundAgent !== undefined ? { boundAgent: stored.boundAgent } : {}),
      },
      (ended) => {
        if (ended.id) sessions.delete(ended.id);
      },
      { sessionId, ...(stored.agentId ? { agentId: stored.agentId } : {}) },
    );
    await session.server.connect(session.transport);
    session.transport.replayInitialize({
      protocolVersion: stored.protocolVersion,
      capabilities: stored.capabilities,
      clientInfo: stored.clientInfo,
    });
    sessions.set(sessionId, session);
    return session;
  };

  const modern = new ModernEndpoint(bridge, { bodyLimit: MCP_BODY_LIMIT });

  router.all('/mcp/mcp', async (ctx) => {
    const sessionId = ctx.get('mcp-session-id');
    const boundAgent = boundAgentOf(ctx);
    if (sessionId) {
      const session = sessions.get(sessionId) ?? (await restore(sessionId));
      // a session belongs to the token that opened it: another agent's token cannot ride on its id
      if (session && session.boundAgent !== boundAgent)
        return jsonRpcError(ctx, 403, `MCP session "${sessionId}" belongs to another agent; initialize your own`);
      return serveSession(ctx, session, sessionId);
    }
    if (ctx.method !== 'POST') {
      // 405 is what the MCP spec tells clients to expect when no server→client stream is offered here.
      ctx.set('Allow', 'POST');
      return jsonRpcError(
        ctx,
        405,
        `${ctx.method} /mcp/mcp needs the Mcp-Session-Id header that initialize returned; a POST without it is a stateless call`,
      );
    }
    const body = await readJson(ctx, MCP_BODY_LIMIT);
    if (isModern(ctx.req.headers, body)) {
      const anchor = ctx.get(SESSION_HEADER);
      const session = anchor ? (sessions.get(anchor) ?? (await restore(anchor))) : undefined;
      if (anchor && (!session || session.boundAgent !== boundAgent))
        return jsonRpcError(ctx, 404, `${SESSION_HEADER}: no session "${anchor}" of this agent; open a new one`);
      session?.active();
      return serveModern(ctx, bridge, modern, body, boundAgent, session);
    }
    const init = mayInitialize(body) ? InitializeRequestSchema.safeParse(body) : undefined;
    if (init?.success) {
      const params = init.data.params;
      const session = new McpSession(
        bridge,
        {
          clientName: params.clientInfo.name,
          clientVersion: params.clientInfo.version,
          capabilities: params.capabilities,
          transport: transportOf(ctx, 'streamable'),
          ...(boundAgent !== undefined ? { boundAgent } : {}),
        },
        (ended) => {
          if (ended.id) sessions.delete(ended.id);
        },
      );
      await session.server.connect(session.transport);
      ctx.respond = false;
      await session.transport.handle(ctx.req, ctx.res, { body });
      if (session.id) {
        sessions.set(session.id, session);
        bridge.mcpSessions.started(session.id, {
          protocolVersion: params.protocolVersion,
          capabilities: params.capabilities,
          clientInfo: params.clientInfo,
          transport: transportOf(ctx, 'streamable'),
          ...(boundAgent !== undefined ? { boundAgent } : {}),
        });
      } else session.end('initialize was refused');
      return;
    }
    await serveStateless(ctx, bridge, body, boundAgent);
  });
};

/** The agent id of the request's agent token (set by the remote listener's MCP guard), if any. */
function boundAgentOf(ctx: Context): string | undefined {
  return (ctx.state as { boundAgent?: string }).boundAgent;
}

async function serveSession(ctx: Context, session: McpSession | undefined, sessionId: string): Promise<void> {
  const lastEventId = ctx.method === 'GET' ? ctx.get('last-event-id') : '';
  const origin = lastEventId ? streamOrigin(lastEventId) : undefined;
  if (!session && origin?.ids) {
    // the resume of a call's stream in a session a restart forgot: its calls end now, with a reason (a 404 here
    // leaves the official SDK client's call waiting for its time-out); the client's next request gets the 404
    ctx.respond = false;
    const limits = (ctx.state as { limits?: LimitCounters }).limits;
    const version = ctx.get('mcp-protocol-version');
    return answerLost(ctx.res, origin, {
      primes: takesEmptyEvents(version || undefined),
      ...(limits ? { limits } : {}),
    });
  }
  if (!session) {
    return jsonRpcError(
      ctx,
      404,
      `MCP session "${sessionId}" is not known (it ended, or the bridge restarted); initialize a new session`,
    );
  }
  const body = ctx.method === 'POST' ? await readJson(ctx, MCP_BODY_LIMIT) : undefined;
  session.active();
  ctx.respond = false;
  const limits = (ctx.state as { limits?: LimitCounters }).limits;
  await session.transport.handle(ctx.req, ctx.res, {
    body,
    onStreamOpen: () => {
      ctx.res.once('close', () => session.streamClosed());
      session.streamOpened();
    },
    ...(limits ? { limits } : {}),
  });
}

/**
 * A stateless call: a fresh server and transport for this one request, closed when it is answered. The answer
 * is JSON, or SSE when the client asked for progress and accepts a stream (so progress notifications flow).
 */
async function serveStateless(
  ctx: Context,
  bridge: BridgeContext,
  body: unknown,
  boundAgent: string | undefined,
): Promise<void> {
  const named = namedAgent(ctx, bridge, boundAgent);
  if (named instanceof Error) return jsonRpcError(ctx, 403, named.message);
  const transportKind = transportOf(ctx, 'stateless');
  let agent = bridge.agents.ensure(boundAgent ?? named ?? 'stateless', {
    transport: transportKind,
  });
  const accept = ctx.get('accept');
  const stream = accept.includes('text/event-stream') && wantsProgress(body);
  const transport = new HttpTransport({ keepAliveMs: bridge.config.pingMs });
  const closed = new AbortController();
  const server = createMcpServer({
    bridge,
    agent: () => agent,
    bindAgent: async (agentId) => (agent = bridge.agents.ensure(agentId, { transport: transportKind })),
    closed: closed.signal,
    stateless: true,
    ...(boundAgent !== undefined ? { boundAgent } : {}),
  });
  ctx.res.once('close', () => closed.abort(new Error('the client closed the request')));
  try {
    await server.connect(transport);
    ctx.respond = false;
    // Plain HTTP clients (curl, fetch) need not know the Streamable HTTP headers: the answer is JSON anyway.
    const limits = (ctx.state as { limits?: LimitCounters }).limits;
    await transport.handle(ctx.req, ctx.res, {
      body,
      lenient: true,
      streamable: stream,
      ...(limits ? { limits } : {}),
    });
  } finally {
    await transport.close().catch(() => undefined);
    await server.close().catch(() => undefined);
  }
}

/**
 * A 2026-07-28 request: no session, each request its own. It speaks for the agent its X-Aiti-Agent header names
 * (checked as for a stateless call), its agent token's, or else the client's own name from its envelope.
 */
async function serveModern(
  ctx: Context,
  bridge: BridgeContext,
  modern: ModernEndpoint,
  body: unknown,
  boundAgent: string | undefined,
  session: McpSession | undefined,
): Promise<void> {
  const named = session ? undefined : namedAgent(ctx, bridge, boundAgent);
  if (named instanceof Error) return jsonRpcError(ctx, 403, named.message);
  ctx.respond = false;
  await modern.serve(new URL(ctx.href), ctx.req.headers, body, ctx.res, {
    transport: transportOf(ctx, 'stateless'),
    ...(named !== undefined ? { named } : {}),
    ...(boundAgent !== undefined ? { boundAgent } : {}),
    ...(session ? { session } : {}),
  });
}

/** The agent id a call without a session names in X-Aiti-Agent, if it may speak for it; an Error saying why not. */
function namedAgent(ctx: Context, bridge: BridgeContext, boundAgent: string | undefined): string | Error | undefined {
  const named = AgentId.safeParse(ctx.get(AGENT_HEADER));
  if (!named.success) return undefined;
  const key = ctx.get(AGENT_KEY_HEADER);
  const problem = claimProblem(bridge, named.data, {
    stateless: true,
    humanToken: carriesToken(ctx.get('authorization'), bridge.token),
    ownName: () => false,
    ...(key ? { agentKey: key } : {}),
    ...(boundAgent !== undefined ? { boundTo: boundAgent } : {}),
  });
  return problem ? new Error(`${AGENT_HEADER}: ${problem}`) : named.data;
}

/** Only an object whose method is initialize can pass InitializeRequestSchema: other POSTs skip its parse. */
function mayInitialize(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

function wantsProgress(body: unknown): boolean {
  if (!body || typeof body !== 'object' || !('params' in body)) return false;
  const params = (body as { params?: { _meta?: { progressToken?: unknown } } }).params;
  return params?._meta?.progressToken !== undefined;
}

function transportOf(ctx: Context, fallback: AgentTransport): AgentTransport {
  return ctx.get(SHIM_HEADER) === 'stdio' ? 'stdio' : fallback;
}

function jsonRpcError(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = jsonRpcErrorBody(status === 404 ? -32001 : -32000, message);
}
