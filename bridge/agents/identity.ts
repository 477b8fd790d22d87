import type { InboxCounts } from '../protocol/index.js';
import type { AgentClaims } from './claims.js';
import type { AgentRegistry } from './registry.js';
import type { AgentTokens } from './tokens.js';

/** Who asks to speak for an agent id (README "Connecting agents" → who is calling). */
export interface Claimant {
  stateless: boolean;
  /** the request carried the human's token */
  humanToken: boolean;
  /** the agentKey the caller passed */
  agentKey?: string;
  /** the agent id the caller's agent token is bound to (the remote listener): it speaks for that id only */
  boundTo?: string;
  /** true for the ids the session would be given by its client's own name (`claude-code`, `claude-code-2` …) */
  ownName(agentId: string): boolean;
}

/** What claimProblem reads: who is online, which ids were taken, and whether an id has an inbox. */
export interface ClaimSources {
  agents: Pick<AgentRegistry, 'get' | 'isOnline'>;
  claims: Pick<AgentClaims, 'verifyKey' | 'owner' | 'hasKey'>;
  inbox: { counts(agentId: string): InboxCounts };
  agentTokens: Pick<AgentTokens, 'bindsName'>;
}

/**
 * Why this caller may not speak for `agentId`, or undefined when it may. An id is free when nobody has it
 * (no live session, no inbox, never taken); the client's own name is its own when no live session holds it
 * (how a client finds its inbox after a reconnect or a bridge restart); a chosen id needs the agentKey its
 * first aiti_hello returned; ids no session has taken stay shared among stateless callers; the human's token
 * may take any id. The id a session already speaks for is never asked about (aiti_hello keeps it).
 */
export function claimProblem(bridge: ClaimSources, agentId: string, who: Claimant): string | undefined {
  if (who.boundTo !== undefined)
    return agentId === who.boundTo
      ? undefined
      : `this connection's agent token belongs to agent "${who.boundTo}" and speaks for that id only, not "${agentId}"`;
  if (who.humanToken) return undefined;
  if (bridge.agentTokens.bindsName(agentId))
    return `agent id "${agentId}" belongs to an agent token (an agent on another machine: aiti-bridge agent-token list); pick another agentId`;
  const { claims } = bridge;
  if (who.agentKey !== undefined) {
    if (claims.verifyKey(agentId, who.agentKey)) return undefined;
    return `agentKey does not match agent id "${agentId}"; pass the agentKey its first aiti_hello returned, or pick another agentId`;
  }
  const agent = bridge.agents.get(agentId);
  if (agent && bridge.agents.isOnline(agent)) {
    return `agent id "${agentId}" is in use by a live session; pick another agentId (or pass its agentKey, or connect with the human's token)`;
  }
  const owner = claims.owner(agentId);
  const counts = bridge.inbox.counts(agentId);
  const hasInbox = counts.pending + counts.delivered + counts.consumed > 0;
  if (!owner && !hasInbox && !agent) return undefined;
  if (!claims.hasKey(agentId)) {
    // ids no session has taken are shared among stateless callers: a stateless call carries no identity
    if (who.stateless && owner !== 'session') return undefined;
    if (!who.stateless && who.ownName(agentId)) return undefined;
  }
  return `agent id "${agentId}" has an inbox that belongs to another agent; pass the agentKey its first aiti_hello returned, pick another agentId, or connect with the human's token`;
}
