import Koa from 'koa';
import type { BridgeContext } from '../context.js';
import { errorResponder, HttpError } from './errors.js';
import { hostGuard } from './guard.js';
import { peerGuard } from './peer.js';
import { streamsByRole, type Zones } from './zones.js';

const PREFIX = '/aiti';

/** The order zones are tried in; a path lives in one zone only, so the order never decides who answers. */
export const ZONE_ORDER = ['open', 'page', 'window', 'desk', 'mcp'] as const;

/**
 * The Koa app: error answers, the peer check (loopback peers only, no proxies), the Host check, the /aiti prefix,
 * then the zone routers and nothing else.
 */
export function createApp(bridge: BridgeContext, zones: Zones): Koa {
  const app = baseApp(bridge);
  app.use(peerGuard());
  app.use(withLimits(bridge));
  app.use(hostGuard(bridge.config.allowedHosts));
  app.use(stripPrefix());
  app.use(streamsByRole());
  for (const name of ZONE_ORDER) app.use(zones[name].routes());
  app.use(zones.open.allowedMethods());
  app.use(noRoute());
  return app;
}

/** A Koa app that answers errors as `{error, field?}` and logs only what is not a client leaving. */
export function baseApp(bridge: BridgeContext): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    bridge.log.error('request failed:', error);
  });
  app.use(errorResponder(bridge.log));
  return app;
}

/** readJson finds the JSON depth limit (and counts its refusals) on the request's state. */
export function withLimits(bridge: BridgeContext): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.limits = bridge.limits;
    await next();
  };
}

/** Every route answers bare and under /aiti: strip the prefix once, before routing. */
export function stripPrefix(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === PREFIX || ctx.path.startsWith(PREFIX + '/')) ctx.path = ctx.path.slice(PREFIX.length) || '/';
    await next();
  };
}

export function noRoute(): Koa.Middleware {
  return async (ctx) => {
    throw new HttpError(404, `no route ${ctx.method} ${ctx.originalUrl.split('?')[0]}`);
  };
}
