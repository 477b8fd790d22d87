import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Server,
  type ClientCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { STRUCTURED_RESULTS } from '../protocol/headers.js';
import { isAutoName, type Agent } from '../agents/registry.js';
import type { BridgeContext } from '../context.js';
import { presents } from './bearer.js';
import { dispatch } from './dispatch.js';
import { patienceOf } from './patience.js';
import { MODERN_INSTRUCTIONS, SERVER_INSTRUCTIONS } from './instructions.js';
import type { ToolCall } from './tool.js';
import { listedTools } from './tool-list.js';
import { TOOLS } from './tools/index.js';

/** What the MCP server needs from the connection it serves (a session, or one stateless request). */
export interface McpConnection {
  bridge: BridgeContext;
  /**
   * the agent this connection speaks for now (aiti_hello may rebind it); a 2026-07-28 request has no session, and
   * its envelope's client name is passed to name it
   */
  agent(clientName?: string): Agent;
  bindAgent(agentId: string): Promise<Agent>;
  /** aborted when the session ends */
  closed: AbortSignal;
  /** one stateless request (no session) */
  stateless: boolean;
  /** the clientInfo name the session initialized with */
  clientName?: string;
  /** the agent id the connection's agent token is bound to (the remote listener): its only identity */
  boundAgent?: string;
  /**
   * a 2026-07-28 request: the server may send nothing the request did not ask for, so it offers neither Claude
   * Code's channel nor tool-list changes (the tools never change while the bridge runs)
   */
  modern?: boolean;
}

/**
 * The one MCP server definition, on the SDK's low-level Server: tools/list answers the flat registry (JSON
 * Schema from each tool's zod schema), tools/call goes to the one dispatcher. A new instance serves each session
 * or stateless request.
 */
export function createMcpServer(connection: McpConnection): Server {
  const server = new Server(
    { name: 'aiti-bridge', title: 'AITI Bridge', version: connection.bridge.version },
    {
      // Claude Code shows `notifications/claude/channel` in the conversation when the server declares this.
      // listChanged as the SDK's McpServer declared it: clients that watch for it keep working.
      capabilities: connection.modern
        ? { tools: {} }
        : { tools: { listChanged: true }, experimental: { 'claude/channel': {} } },
      instructions: connection.modern ? MODERN_INSTRUCTIONS : SERVER_INSTRUCTIONS,
    },
  );
  server.setRequestHandler('tools/list', () => ({ tools: listedTools(TOOLS) }));
  server.setRequestHandler('tools/call', (request, ctx) =>
    dispatch(
      TOOLS,
      request.params.name,
      request.params.arguments,
      toolCall(connection, ctx, asksForStructured(server, ctx)),
    ),
  );
  return server;
}

function toolCall(connection: McpConnection, ctx: ServerContext, structured: boolean): ToolCall {
  const request = ctx.mcpReq;
  const progressToken = request._meta?.progressToken;
  // the protocol layer lifts the envelope's keys off _meta (typed as {} in the SDK's public types)
  const envelope = request.envelope as Record<string, unknown> | undefined;
  const clientName = connection.clientName ?? envelopeClientName(envelope);
  const patienceMs = patienceOf(request._meta, clientName);
  return {
    bridge: connection.bridge,
    get agent() {
      return connection.agent(envelopeClientName(envelope));
    },
    signal: AbortSignal.any([request.signal, connection.closed]),
    progress: async (message, progress, total) => {
      if (progressToken === undefined || request.signal.aborted) return;
      await request.notify({
        method: 'notifications/progress',
        params: { progressToken, progress, ...(total !== undefined ? { total } : {}), message },
      });
    },
    structured,
    ...(patienceMs !== undefined ? { patienceMs } : {}),
    bindAgent: (agentId) => connection.bindAgent(agentId),
    claimant: {
      stateless: connection.stateless,
      humanToken: presents(ctx.http?.authInfo?.token, connection.bridge.token),
      ownName: (agentId) => !connection.stateless && isAutoName(agentId, connection.clientName),
      ...(connection.boundAgent !== undefined ? { boundTo: connection.boundAgent } : {}),
    },
  };
}

/** The client's name a 2026-07-28 request carries in its envelope (2025-era requests carry none). */
function envelopeClientName(envelope: Record<string, unknown> | undefined): string | undefined {
  const info = envelope?.[CLIENT_INFO_META_KEY];
  const name = info && typeof info === 'object' ? (info as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/**
 * Whether this call's caller asked for results' JSON (STRUCTURED_RESULTS): in its capabilities (the session's
 * initialize, or a 2026-07-28 request's envelope) or in the call's own `_meta`.
 */
function asksForStructured(server: Server, ctx: ServerContext): boolean {
  if (ctx.mcpReq._meta?.[STRUCTURED_RESULTS] === true) return true;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities =
    server.getClientCapabilities() ?? (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined);
  const experimental = capabilities?.experimental;
  return Boolean(experimental && typeof experimental === 'object' && STRUCTURED_RESULTS in experimental);
}
