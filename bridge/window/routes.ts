import type { Router, RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import { AiSseQuery, AllowOriginBody } from '../protocol/index.js';
import type { BridgeContext } from '../context.js';
import { readBody, readQuery } from '../http/body.js';
import { SseStream } from '../http/sse.js';

/** Human side of README "HTTP surface" (the window guard — Origin, then token — is applied by the app). */
export function humanRoutes(router: Router, bridge: BridgeContext, guard: RouterMiddleware): void {
  router.get('/bridge/sessions', guard, (ctx) => {
    ctx.body = bridge.pages.sessions();
  });

  router.post('/bridge/allow-origin', guard, async (ctx) => {
    const { origin } = await readBody(ctx, AllowOriginBody);
    bridge.pages.allowOrigin(origin);
    ctx.body = { allowed: origin };
  });
}

/** GET /bridge/sse?role=ai: `state` first, then deltas. */
export function openHumanStream(ctx: Context, bridge: BridgeContext): void {
  readQuery(ctx, AiSseQuery);
  bridge.hub.attach(new SseStream(ctx, { pingMs: bridge.config.pingMs }));
}
