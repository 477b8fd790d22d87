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

/** Sends the `agents` event: the one place it is built (an agent came or went, or its unread count moved). */
export function broadcastAgents(bridge: BridgeContext): void {
  bridge.hub.broadcast('agents', { agents: agentRows(bridge) });
}
