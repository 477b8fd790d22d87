import { AiSseQuery, AllowOriginBody } from '../protocol/index.js';
import { readBody, readQuery } from '../http/body.js';
import { SseStream } from '../http/sse.js';
import { partyOf, STREAM_PATHS, type RouteSetup } from '../http/zones.js';

/** Human side of README "HTTP surface": mounted in the window zone (its router checks Origin, then the token). */
export const windowRoutes: RouteSetup = (router, bridge) => {
  /** GET /bridge/sse?role=ai: `state` first, then deltas. */
  router.get(STREAM_PATHS.ai, (ctx) => {
    readQuery(ctx, AiSseQuery);
    bridge.hub.attach(new SseStream(ctx, { pingMs: bridge.config.pingMs, limits: bridge.limits }), partyOf(ctx));
  });

  /** GET /bridge/whoami: the desk, or a paired device and its name (the phone window asks before anything). */
  router.get('/bridge/whoami', (ctx) => {
    const party = partyOf(ctx);
    const name = (ctx.state as { deviceName?: string }).deviceName;
    ctx.body = { party, ...(party === 'device' && name ? { name } : {}) };
  });

  router.get('/bridge/sessions', (ctx) => {
    ctx.body = bridge.pages.sessions();
  });

  router.post('/bridge/allow-origin', async (ctx) => {
    const { origin } = await readBody(ctx, AllowOriginBody);
    await bridge.pages.allowOrigin(origin);
    ctx.body = { allowed: origin };
  });
};
