import type { Logger } from '../log.js';
import type { Agent, AgentLink, AgentRegistry, AgentTransport } from './registry.js';

export interface Rebind {
  /** the session's link, when it is linked (a live session); moved to the new agent */
  link?: { key: string; link: AgentLink };
  /** the session still has the name the bridge picked for it (client name, -2, -3 …) */
  autoNamed: boolean;
  transport: AgentTransport;
}

/** What rebindSession changes: the agents, the inbox that moves with a renamed agent, and the log of a failed move. */
export interface RebindTargets {
  agents: Pick<AgentRegistry, 'ensure' | 'link' | 'unlink' | 'forget'>;
  inbox: { rename(from: string, to: string): Promise<void> };
  log: Logger;
}

/**
 * aiti_hello picks another agent id for a session. When the old id was the name the bridge picked for this
 * session and nobody else speaks for it, it was only ever this session's: its history and unread messages move
 * to the new name and it is forgotten at once, so no offline ghost is left behind. An id the agent chose itself,
 * or one another session shares, stays as it is (and folds away after the TTL once offline).
 *
 * The session speaks for `to` at once; `moved` settles once the old name's messages are on disk and in memory
 * under the new one (aiti_hello waits for it, so the pending count it answers is the one a restart keeps). A move
 * the disk refused leaves them under the old name, logged.
 */
export function rebindSession(
  bridge: RebindTargets,
  from: Agent,
  to: string,
  how: Rebind,
): { agent: Agent; moved: Promise<void> } {
  const { agents, inbox } = bridge;
  const next = agents.ensure(to, { transport: how.transport });
  if (how.link) {
    agents.unlink(from, how.link.key);
    agents.link(next, how.link.key, how.link.link);
  }
  if (!how.autoNamed || from.links.size > 0) return { agent: next, moved: Promise.resolve() };
  agents.forget(from);
  const moved = inbox
    .rename(from.agentId, to)
    .catch((error: unknown) =>
      bridge.log.child('agents').error(`could not journal the rename of ${from.agentId} to ${to}:`, error),
    );
  return { agent: next, moved };
}
