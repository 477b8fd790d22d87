import { askRoutes } from './asks/routes.js';
import type { BridgeContext } from './context.js';
import { findAssetsDir, staticRoutes } from './http/static.js';
import { createZones, localGuards, type Zones } from './http/zones.js';
import { deskRoutes } from './devices/desk-routes.js';
import { pairRoutes } from './devices/pair-routes.js';
import { imageRoutes } from './images/routes.js';
import { remoteGuards } from './remote/guard.js';
import { credentialProofRoutes } from './remote/proof-routes.js';
import { inboxRoutes } from './inbox/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { pageRoutes } from './pages/routes.js';
import { quickReplyRoutes } from './window/quick-reply-routes.js';
import { windowRoutes } from './window/routes.js';
import { tokenProofRoutes } from './window/token-proof-routes.js';

/**
 * Which capability's routes live in which trust zone (README "HTTP surface"), on the local listener or the remote
 * one (remote/listener.ts): the same zones, each with that listener's guards; the remote listener adds the
 * pairing step and leaves the page routes out unless --remote-pages. A new route goes into the setup of its
 * capability; a new capability adds its setup to the zone of the party that calls it.
 */
export function mountRoutes(bridge: BridgeContext, listener: 'local' | 'remote' = 'local'): Zones {
  const local = listener === 'local';
  const zones = createZones(bridge, local ? localGuards(bridge) : remoteGuards());
  const pages = local || bridge.config.remotePages;
  staticRoutes(zones.open, findAssetsDir(), { pageScript: pages });
  if (local) tokenProofRoutes(zones.open, bridge);
  else {
    credentialProofRoutes(zones.open, bridge);
    pairRoutes(zones.open, bridge);
  }
  if (pages) pageRoutes(zones.page, bridge);
  windowRoutes(zones.window, bridge);
  inboxRoutes(zones.window, bridge);
  askRoutes(zones.window, bridge);
  imageRoutes(zones.window, bridge);
  quickReplyRoutes(zones.window, bridge);
  deskRoutes(zones.desk, bridge);
  mcpRoutes(zones.mcp, bridge);
  return zones;
}
