import Router, { type RouterMiddleware } from '@koa/router';
import type { Middleware } from 'koa';
import type { BridgeContext } from '../context.js';
import { HttpError } from './errors.js';
import { checkOrigin, checkToken, openCors, windowGuard } from './guard.js';
import { pageRate } from './page-rate.js';

/**
 * The trust zones of the HTTP surface (README "HTTP surface"), one router each. A zone's guard is the router's
 * own middleware, so a route added to a zone cannot forget it, and a route must be added to some zone to exist:
 * - open: anyone on loopback (health, the page script, the window's files);
 * - page: open CORS (pages come from any dev server), each request checked with its page's secret;
 * - window: the human's token, from the bridge's own window origin (or --allowed-origins) only;
 * - mcp: agents; browser origins refused, the token required with --mcp-auth.
 */
export interface Zones {
  open: Router;
  page: Router;
  window: Router;
  mcp: Router;
}
export type ZoneName = keyof Zones;

/** A capability adds its routes to the router of the zone it belongs to; paths are written bare (no /aiti). */
export type RouteSetup = (router: Router, bridge: BridgeContext) => void;

/**
 * `/bridge/sse` serves two parties: `?role=page` (page zone) and `?role=ai` (window zone). The role picks the
 * zone before routing: each stream is routed under its own path, so each lives in exactly one zone's router.
 */
export const STREAM_PATHS = { page: '/bridge/sse/page', ai: '/bridge/sse/ai' } as const;

export function createZones(bridge: BridgeContext): Zones {
  const originOptions = { allowedOrigins: bridge.config.allowedOrigins, ownOrigins: bridge.ownOrigins };
  const page = new Router();
  page.use(openCors());
  page.use(bridge.tarpit.middleware());
  page.use(pageRate(bridge));
  const window = new Router();
  window.use(windowGuard({ ...originOptions, token: bridge.token, agentToken: bridge.agentToken }));
  const mcp = new Router();
  const mcpGuard: RouterMiddleware = async (ctx, next) => {
    checkOrigin(ctx, originOptions);
    // agents hold the agent token (the shim reads it from the data dir); the human's token works here too
    if (bridge.config.mcpAuth) checkToken(ctx, bridge.token, bridge.agentToken);
    await next();
  };
  mcp.use(mcpGuard);
  const open = new Router();
  open.get('/bridge/health', (ctx) => {
    ctx.body = { ok: true, version: bridge.version };
  });
  open.get('/bridge/sse', () => {
    throw new HttpError(400, 'query "role" must be "page" or "ai"', 'role');
  });
  return { open, page, window, mcp };
}

/** Sends `/bridge/sse?role=page|ai` to that role's stream path (see STREAM_PATHS); other paths pass untouched. */
export function streamsByRole(): Middleware {
  return async (ctx, next) => {
    const role = ctx.query.role;
    if (ctx.path === '/bridge/sse' && (role === 'page' || role === 'ai')) ctx.path = STREAM_PATHS[role];
    await next();
  };
}

export interface ZoneRoute {
  zone: ZoneName;
  method: string;
  path: string;
}

/** Every route of every zone (not the guards), for the test that walks them. */
export function zoneRoutes(zones: Zones): ZoneRoute[] {
  const routes: ZoneRoute[] = [];
  for (const [zone, router] of Object.entries(zones) as Array<[ZoneName, Router]>) {
    for (const layer of router.stack) {
      for (const method of layer.methods) routes.push({ zone, method, path: String(layer.path) });
    }
  }
  return routes;
}
