import type { StateEvent } from '../protocol/index.js';
import type { AgentRegistry } from '../agents/registry.js';
import type { PageRegistry } from '../pages/registry.js';
import type { WindowFeed } from './feed.js';

/**
 * What the window's state is composed from, each part asked of the module that owns it. The asks and the inbox
 * sit above the window (they broadcast on its hub), so they are named here by what they answer, not imported.
 */
export interface StateSources {
  version: string;
  asks: {
    views(): StateEvent['asks'];
    recentEnds(): NonNullable<StateEvent['recentEnds']>;
    readonly away: boolean;
  };
  agents: Pick<AgentRegistry, 'all' | 'view'>;
  pages: Pick<PageRegistry, 'sessions' | 'heldOrigins'>;
  inbox: {
    countsByAgent(): StateEvent['inbox'];
    unread(agentId: string): number;
    storage(): { problem?: string };
  };
}

/** The `state` event: everything the window shows, composed from the modules that own each part. */
export function composeState(bridge: StateSources): StateEvent {
  return {
    version: bridge.version,
    asks: bridge.asks.views(),
    agents: agentRows(bridge),
    pages: bridge.pages.sessions(),
    inbox: bridge.inbox.countsByAgent(),
    heldOrigins: bridge.pages.heldOrigins(),
    away: bridge.asks.away,
    recentEnds: bridge.asks.recentEnds(),
    ...(bridge.inbox.storage().problem ? { storageProblem: bridge.inbox.storage().problem } : {}),
  };
}

/** The window's row of each known agent (with its unread count): the `agents` part of `state` and of the event. */
export function agentRows(bridge: Pick<StateSources, 'agents' | 'inbox'>): StateEvent['agents'] {
  return bridge.agents.all().map((agent) => bridge.agents.view(agent, bridge.inbox.unread(agent.agentId)));
}

/**
 * An agent came or went, or its unread count moved: the window's feed sends the `agents` event (built from
 * agentRows) at its next coalesced update.
 */
export function broadcastAgents(bridge: { windowFeed: Pick<WindowFeed, 'agentsChanged'> }): void {
  bridge.windowFeed.agentsChanged();
}
