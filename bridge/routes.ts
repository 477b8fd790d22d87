import { askRoutes } from './asks/routes.js';
import type { BridgeContext } from './context.js';
import { findAssetsDir, staticRoutes } from './http/static.js';
import { createZones, type Zones } from './http/zones.js';
import { imageRoutes } from './images/routes.js';
import { inboxRoutes } from './inbox/routes.js';
import { mcpRoutes } from './mcp/routes.js';
import { pageRoutes } from './pages/routes.js';
import { quickReplyRoutes } from './window/quick-reply-routes.js';
import { windowRoutes } from './window/routes.js';
import { tokenProofRoutes } from './window/token-proof-routes.js';

/**
 * Which capability's routes live in which trust zone (README "HTTP surface"). A new route goes into the setup of
 * its capability; a new capability adds its setup to the zone of the party that calls it.
 */
export function mountRoutes(bridge: BridgeContext): Zones {
  const zones = createZones(bridge);
  staticRoutes(zones.open, findAssetsDir());
  tokenProofRoutes(zones.open, bridge);
  pageRoutes(zones.page, bridge);
  windowRoutes(zones.window, bridge);
  inboxRoutes(zones.window, bridge);
  askRoutes(zones.window, bridge);
  imageRoutes(zones.window, bridge);
  quickReplyRoutes(zones.window, bridge);
  mcpRoutes(zones.mcp, bridge);
  return zones;
}
