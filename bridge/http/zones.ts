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
 * - window: the human: on the local listener the human's token, from the bridge's own window origin (or
 *   --allowed-origins) only; on the remote listener a paired device (remote/guard.ts);
 * - desk: what only the desk may do (pair and revoke devices, make agent tokens): the human's token on the local
 *   listener, refused on the remote one, so a device cannot mint credentials;
 * - mcp: agents; browser origins refused, the token required with --mcp-auth (the local listener), an agent token
 *   bound to its agent id (the remote listener).
 */
export interface Zones {
  open: Router;
  page: Router;
  window: Router;
  desk: Router;
  mcp: Router;
}

/** The guards of the zones that need a credential: each listener brings its own (local here, remote/guard.ts). */
export interface ZoneGuards {
  window: RouterMiddleware;
  desk: RouterMiddleware;
  mcp: RouterMiddleware;
}

/** Who a window-zone request is: set by the window guard, read by the routes that answer the two differently. */
export type WindowParty = 'desk' | 'device';

/** A guard that set no party gets the less trusted one: forgetting it never makes a request the desk. */
export function partyOf(ctx: { state: unknown }): WindowParty {
  return (ctx.state as { party?: WindowParty }).party ?? 'device';
}
export type ZoneName = keyof Zones;

/** A capability adds its routes to the router of the zone it belongs to; paths are written bare (no /aiti). */
export type RouteSetup = (router: Router, bridge: BridgeContext) => void;

/**
 * `/bridge/sse` serves two parties: `?role=page` (page zone) and `?role=ai` (window zone). The role picks the
 * zone before routing: each stream is routed under its own path, so each lives in exactly one zone's router.
 */
export const STREAM_PATHS = { page: '/bridge/sse/page', ai: '/bridge/sse/ai' } as const;

/** The local listener's guards: the human's token for the window and the desk, --mcp-auth for agents. */
export function localGuards(bridge: BridgeContext): ZoneGuards {
  const originOptions = { allowedOrigins: bridge.config.allowedOrigins, ownOrigins: bridge.ownOrigins };
  const human = windowGuard({ ...originOptions, token: bridge.token, agentToken: bridge.agentToken });
  const desk: RouterMiddleware = async (ctx, next) => {
    ctx.state.party = 'desk' satisfies WindowParty;
    await human(ctx, next);
  };
  const mcp: RouterMiddleware = async (ctx, next) => {
    checkOrigin(ctx, originOptions);
    // agents hold the agent token (the shim reads it from the data dir); the human's token works here too
    if (bridge.config.mcpAuth) checkToken(ctx, bridge.token, bridge.agentToken);
    await next();
  };
  return { window: desk, desk, mcp };
}

export function createZones(bridge: BridgeContext, guards: ZoneGuards = localGuards(bridge)): Zones {
  const page = new Router();
  page.use(openCors());
  page.use(bridge.tarpit.middleware());
  page.use(pageRate(bridge));
  const window = new Router();
  window.use(guards.window);
  const desk = new Router();
  desk.use(guards.desk);
  const mcp = new Router();
  mcp.use(guards.mcp);
  const open = new Router();
  open.get('/bridge/health', (ctx) => {
    ctx.body = { ok: true, version: bridge.version };
  });
  open.get('/bridge/sse', () => {
    throw new HttpError(400, 'query "role" must be "page" or "ai"', 'role');
  });
  return { open, page, window, desk, mcp };
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
