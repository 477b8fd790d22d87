import type { StateEvent } from '../protocol/index.js';
import type { BridgeContext } from '../context.js';

/** The `state` event: everything the window shows, composed from the modules that own each part. */
export function composeState(bridge: BridgeContext): StateEvent {
  return {
    version: bridge.version,
    asks: bridge.asks.views(),
    agents: bridge.agents.all().map((agent) => bridge.agents.view(agent, bridge.inbox.unread(agent.agentId))),
    pages: bridge.pages.sessions(),
    inbox: bridge.inbox.countsByAgent(),
    heldOrigins: bridge.pages.heldOrigins(),
    away: bridge.asks.away,
  };
}
