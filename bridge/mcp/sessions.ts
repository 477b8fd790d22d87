import { randomUUID } from 'node:crypto';
import type { ClientCapabilities, Server } from '@modelcontextprotocol/server';
import type { Agent, AgentLink, AgentTransport } from '../agents/registry.js';
import type { BridgeContext } from '../context.js';
import { HttpTransport } from './http-transport.js';
import { createMcpServer, type McpConnection } from './server.js';
import { pushLinks } from './push-links.js';
import { rebindSession } from '../agents/rename.js';

export interface SessionStart {
  clientName?: string;
  clientVersion?: string;
  capabilities?: ClientCapabilities;
  transport: AgentTransport;
  /** the agent id of the session's agent token (the remote listener): the session is that agent, whatever its clientInfo */
  boundAgent?: string;
}

/** A session the bridge had before it restarted (mcp/session-store.ts): its id, and the agent it spoke for. */
export interface RestoredSession {
  sessionId: string;
  agentId?: string;
}

/**
 * One Streamable HTTP session: its MCP server and transport, and the agent it speaks for. The agent is online
 * from the first request that carries the session id (a client that drops the id never shows up) until the
 * GET stream closes, the client sends DELETE, or the session idles for the TTL without a GET stream.
 */
export class McpSession {
  readonly transport: HttpTransport;
  readonly server: Server;
  private current?: Agent;
  private readonly closing = new AbortController();
  private link: AgentLink;
  private linked = false;
  private streamOpen = false;
  private idleTimer?: NodeJS.Timeout;
  private ended = false;
  /** the agent id is still the one the bridge picked (no aiti_hello agentId yet) */
  private autoNamed = true;

  constructor(
    private readonly bridge: BridgeContext,
    private readonly start: SessionStart,
    private readonly onEnd: (session: McpSession) => void,
    restored?: RestoredSession,
  ) {
    this.link = { transport: start.transport, ...(start.clientName ? { client: clientLabel(start) } : {}) };
    this.transport = new HttpTransport({
      sessionIdGenerator: () => randomUUID(),
      keepAliveMs: bridge.config.pingMs,
      onsessionclosed: () => this.end('the client ended the session'),
      ...(restored ? { restoredSessionId: restored.sessionId } : {}),
    });
    if (restored?.agentId) {
      this.current = bridge.agents.ensure(restored.agentId, {
        ...(start.clientName ? { client: clientLabel(start) } : {}),
        transport: start.transport,
      });
      this.autoNamed = false;
    }
    this.server = createMcpServer(this.connection());
    this.transport.onclose = () => this.end('the transport closed');
  }

  /**
   * What a server speaking for this session needs: its own, and the one of each 2026-07-28 request that the
   * stdio shim makes on this session's behalf (X-Aiti-Session), so the agent, its name and its key stay the
   * session's whatever protocol revision the client speaks.
   */
  connection(modern = false): McpConnection {
    return {
      bridge: this.bridge,
      agent: () => this.agent,
      bindAgent: (agentId) => this.bindAgent(agentId),
      closed: this.closing.signal,
      stateless: false,
      ...(modern ? { modern } : {}),
      ...(this.start.clientName ? { clientName: this.start.clientName } : {}),
      ...(this.start.boundAgent !== undefined ? { boundAgent: this.start.boundAgent } : {}),
    };
  }

  /** The agent this session speaks for, made on first use (a client that drops the session id makes none). */
  get agent(): Agent {
    if (!this.current) {
      const agents = this.bridge.agents;
      // an id chosen with aiti_hello (it has an agentKey), or an agent token's, is never handed out as a client's
      // own name; a session with an agent token is that token's agent
      const id =
        this.start.boundAgent ??
        agents.idFor(
          this.start.clientName,
          (candidate) => this.bridge.claims.hasKey(candidate) || this.bridge.agentTokens.bindsName(candidate),
        );
      this.bridge.claims.record(id, 'session');
      this.current = agents.ensure(id, {
        ...(this.start.clientName ? { client: clientLabel(this.start) } : {}),
        transport: this.start.transport,
      });
    }
    return this.current;
  }

  get id(): string | undefined {
    return this.transport.sessionId;
  }

  /** the agent token's agent id this session was opened with (the remote listener), if any */
  get boundAgent(): string | undefined {
    return this.start.boundAgent;
  }

  /** Every request of this session passes here: the agent goes online and the idle clock restarts. */
  active(): void {
    const id = this.id;
    if (this.ended || !id) return;
    if (!this.linked) {
      this.linked = true;
      this.bridge.agents.link(this.agent, id, this.link);
    } else this.bridge.agents.touch(this.agent);
    this.armIdle();
  }

  /** The server→client stream opened: pushes can now reach the client. */
  streamOpened(): void {
    const id = this.id;
    if (this.ended || !id) return;
    this.streamOpen = true;
    clearTimeout(this.idleTimer);
    this.link = { ...this.link, ...pushLinks(this.server, this.transport, this.start.capabilities) };
    this.linked = true;
    this.bridge.agents.link(this.agent, id, this.link);
  }

  /** The GET stream closed: the session ends with it (README "HTTP surface"). */
  streamClosed(): void {
    if (this.streamOpen) this.end('its GET stream closed');
  }

  private async bindAgent(agentId: string): Promise<Agent> {
    if (agentId === this.agent.agentId) return this.agent;
    const id = this.id;
    const rebound = rebindSession(this.bridge, this.agent, agentId, {
      ...(id && this.linked ? { link: { key: id, link: this.link } } : {}),
      autoNamed: this.autoNamed,
      transport: this.start.transport,
    });
    this.current = rebound.agent;
    this.autoNamed = false;
    if (id) this.bridge.mcpSessions.bound(id, rebound.agent.agentId);
    await rebound.moved;
    return rebound.agent;
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    if (this.streamOpen) return;
    this.idleTimer = setTimeout(() => this.end('idle without a GET stream'), this.bridge.config.ttlMs);
    this.idleTimer.unref();
  }

  end(reason: string): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.idleTimer);
    this.closing.abort(new Error(`the MCP session ended (${reason})`));
    const id = this.id;
    if (id) this.bridge.mcpSessions.ended(id);
    if (id && this.linked) this.bridge.agents.unlink(this.agent, id);
    this.bridge.log.child('mcp').debug(`session ${id ?? '?'} of ${this.current?.agentId ?? 'nobody'} ended: ${reason}`);
    this.onEnd(this);
    void this.server.close().catch(() => undefined);
  }
}

function clientLabel(start: SessionStart): string {
  return start.clientVersion ? `${start.clientName ?? 'client'} ${start.clientVersion}` : (start.clientName ?? '');
}
