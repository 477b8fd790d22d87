import Koa from 'koa';
import Router, { type RouterMiddleware } from '@koa/router';
import type { BridgeContext } from '../context.js';
import { errorResponder, HttpError } from './errors.js';
import { checkOrigin, checkToken, hostGuard, windowGuard } from './guard.js';

export interface Guards {
  /** window endpoints: allowed Origin, then the human's token */
  window: RouterMiddleware;
  /** the MCP endpoint: allowed Origin, and the token when --mcp-auth is on */
  mcp: RouterMiddleware;
}

/** A capability adds its routes here; routes are written bare and served bare and under /aiti. */
export type RouteSetup = (router: Router, bridge: BridgeContext, guards: Guards) => void;

const PREFIX = '/aiti';

export function createApp(bridge: BridgeContext, setups: RouteSetup[]): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
    bridge.log.error('request failed:', error);
  });

  const originOptions = { allowedOrigins: bridge.config.allowedOrigins, ownOrigins: bridge.ownOrigins };
  const guards: Guards = {
    window: windowGuard({ ...originOptions, token: bridge.token }),
    mcp: async (ctx, next) => {
      checkOrigin(ctx, originOptions);
      if (bridge.config.mcpAuth) checkToken(ctx, bridge.token);
      await next();
    },
  };

  const router = new Router();
  router.get('/bridge/health', (ctx) => {
    ctx.body = { ok: true, version: bridge.version };
  });
  for (const setup of setups) setup(router, bridge, guards);

  app.use(errorResponder(bridge.log));
  app.use(hostGuard(bridge.config.allowedHosts));
  // Every route answers bare and under /aiti: strip the prefix once, before routing.
  app.use(async (ctx, next) => {
    if (ctx.path === PREFIX || ctx.path.startsWith(PREFIX + '/')) ctx.path = ctx.path.slice(PREFIX.length) || '/';
    await next();
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  app.use(async (ctx) => {
    throw new HttpError(404, `no route ${ctx.method} ${ctx.originalUrl.split('?')[0]}`);
  });
  return app;
}
