import type { StateEvent } from '../protocol/index.js';
import type { BridgeContext } from '../context.js';

/** The `state` event: everything the window shows, composed from the modules that own each part. */
export function composeState(bridge: BridgeContext): StateEvent {
  return {
    version: bridge.version,
    asks: bridge.asks.views(),
    agents: agentRows(bridge),
    pages: bridge.pages.sessions(),
    inbox: bridge.inbox.countsByAgent(),
    heldOrigins: bridge.pages.heldOrigins(),
    away: bridge.asks.away,
  };
}

/** The window's row of each known agent (with its unread count): the `agents` part of `state` and of the event. */
export function agentRows(bridge: BridgeContext): StateEvent['agents'] {
  return bridge.agents.all().map((agent) => bridge.agents.view(agent, bridge.inbox.unread(agent.agentId)));
}

/**
 * An agent came or went, or its unread count moved: the window's feed sends the `agents` event (built from
 * agentRows) at its next coalesced update.
 */
export function broadcastAgents(bridge: BridgeContext): void {
  bridge.windowFeed.agentsChanged();
}
