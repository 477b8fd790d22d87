import type { AgentView, DeliveryChannel, Message, SubscribableEvent } from '../protocol/index.js';

export type AgentTransport = AgentView['transport'];
/** A page event kind an agent subscribes to (protocol's SubscribableEvent). */
export type PageEventKind = SubscribableEvent;

/** How a connected MCP session can reach its client right now, besides the inbox. */
export interface AgentLink {
  /** MCP session id (stateless calls have none) */
  sessionId?: string;
  transport: AgentTransport;
  client?: string;
  /** shows a message in the conversation (Claude Code's `claude/channel`), when the client declared it */
  channel?: (message: Message) => Promise<void>;
  /**
   * asks the client's model through sampling/createMessage, when the client declared sampling and a stream is
   * open; the message's images (as MCP image content) go with it
   */
  sampling?: (message: Message, images?: Array<{ data: string; mimeType: string }>) => Promise<void>;
}

export interface Agent {
  agentId: string;
  client?: string;
  transport: AgentTransport;
  /** the default page bound by aiti_hello */
  pageId?: string;
  /** the page its last page tool reached: an unbound call never moves from it to another page silently */
  lastPageId?: string;
  subEvents: Set<PageEventKind>;
  links: Map<string, AgentLink>;
  lastSeen: number;
  forgetTimer?: NodeJS.Timeout;
}

/** The agent id a client's own name gives (`Claude Code` → `claude-code`); sessions add -2, -3 … */
export function autoNameBase(clientName: string | undefined): string {
  return (
    (clientName ?? 'agent')
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^-+|(?<!-)-+$/g, '')
      .slice(0, 48) || 'agent'
  );
}

/** Whether `agentId` is one of the ids a client of this name is given (`base`, `base-2` …). */
export function isAutoName(agentId: string, clientName: string | undefined): boolean {
  const base = autoNameBase(clientName);
  return agentId === base || (agentId.startsWith(`${base}-`) && /^\d+$/.test(agentId.slice(base.length + 1)));
}

export type AgentChange = { type: 'online' | 'offline' | 'updated' | 'forgotten'; agent: Agent };

/**
 * Owns the agents: their ids (stable across reconnects), their links to live MCP sessions, default pages and
 * event subscriptions. An agent with no live link is offline; it is forgotten after the TTL, but its inbox
 * and journal are not (they belong to the inbox).
 */
export class AgentRegistry {
  private readonly agents = new Map<string, Agent>();
  private readonly listeners = new Set<(change: AgentChange) => void>();

  constructor(private readonly ttlMs: number) {}

  onChange(listener: (change: AgentChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: AgentChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** The agent with this id, created when new. */
  ensure(agentId: string, details: { client?: string; transport?: AgentTransport } = {}): Agent {
    let agent = this.agents.get(agentId);
    if (!agent) {
      agent = {
        agentId,
        transport: details.transport ?? 'unknown',
        subEvents: new Set(),
        links: new Map(),
        lastSeen: Date.now(),
      };
      this.agents.set(agentId, agent);
    }
    if (details.client) agent.client = details.client;
    if (details.transport) agent.transport = details.transport;
    this.touch(agent);
    return agent;
  }

  /**
   * A free id for a new session of this client: the client's own name (so it is the same after a reconnect or a
   * restart), with -2, -3 … when another live session already holds it.
   */
  idFor(clientName: string | undefined, reserved: (id: string) => boolean = () => false): string {
    const base = autoNameBase(clientName);
    for (let n = 1; ; n++) {
      const id = n === 1 ? base : `${base}-${n}`;
      const agent = this.agents.get(id);
      if ((!agent || agent.links.size === 0) && !reserved(id)) return id;
    }
  }

  /** A live MCP session now speaks for this agent. Returns the function that ends the link. */
  link(agent: Agent, key: string, link: AgentLink): () => void {
    const wasOnline = agent.links.size > 0;
    agent.links.set(key, link);
    if (link.client) agent.client = link.client;
    agent.transport = link.transport;
    this.touch(agent);
    this.emit({ type: wasOnline ? 'updated' : 'online', agent });
    return () => this.unlink(agent, key);
  }

  unlink(agent: Agent, key: string): void {
    if (!agent.links.delete(key)) return;
    this.touch(agent);
    this.emit({ type: agent.links.size > 0 ? 'updated' : 'offline', agent });
  }

  update(agent: Agent, patch: { pageId?: string; subEvents?: PageEventKind[] }): void {
    if (patch.pageId !== undefined) agent.pageId = patch.pageId;
    if (patch.subEvents) agent.subEvents = new Set(patch.subEvents);
    this.touch(agent);
    this.emit({ type: 'updated', agent });
  }

  /** A page tool of this agent reached this page. */
  usedPage(agent: Agent, pageId: string): void {
    agent.lastPageId = pageId;
  }

  touch(agent: Agent): void {
    agent.lastSeen = Date.now();
    clearTimeout(agent.forgetTimer);
    agent.forgetTimer = undefined;
    if (agent.links.size > 0) return;
    agent.forgetTimer = setTimeout(() => {
      if (agent.links.size > 0 || this.agents.get(agent.agentId) !== agent) return;
      this.agents.delete(agent.agentId);
      this.emit({ type: 'forgotten', agent });
    }, this.ttlMs);
    agent.forgetTimer.unref();
  }

  /** Forgets an offline agent at once (a rename left it behind): no ghost waits out the TTL. */
  forget(agent: Agent): void {
    if (agent.links.size > 0 || this.agents.get(agent.agentId) !== agent) return;
    clearTimeout(agent.forgetTimer);
    this.agents.delete(agent.agentId);
    this.emit({ type: 'forgotten', agent });
  }

  get(agentId: string): Agent | undefined {
    return this.agents.get(agentId);
  }

  all(): Agent[] {
    return [...this.agents.values()];
  }

  isOnline(agent: Agent): boolean {
    return agent.links.size > 0;
  }

  /** The channels this agent can be reached by now, best first; the inbox always. */
  channels(agent: Agent): DeliveryChannel[] {
    const links = [...agent.links.values()];
    const found: DeliveryChannel[] = [];
    if (links.some((l) => l.channel)) found.push('channel');
    if (links.some((l) => l.sampling)) found.push('sampling');
    found.push('inbox');
    return found;
  }

  view(agent: Agent, unread: number): AgentView {
    return {
      agentId: agent.agentId,
      ...(agent.client ? { client: agent.client } : {}),
      online: this.isOnline(agent),
      transport: agent.transport,
      ...(agent.pageId ? { pageId: agent.pageId } : {}),
      channels: this.channels(agent),
      unread,
      lastSeen: new Date(agent.lastSeen).toISOString(),
    };
  }

  close(): void {
    for (const agent of this.agents.values()) clearTimeout(agent.forgetTimer);
  }
}
