import { AnswerBody, PresenceBody } from '../protocol/index.js';
import type { RouteSetup } from '../http/zones.js';
import { readBody } from '../http/body.js';

/** The window's side of asks: answer/reject/pause/resume, and presence (mounted in the window zone). */
export const askRoutes: RouteSetup = (router, bridge) => {
  router.post('/bridge/answer', async (ctx) => {
    const body = await readBody(ctx, AnswerBody);
    ctx.body = bridge.asks.act(body);
  });

  router.post('/bridge/presence', async (ctx) => {
    const { away } = await readBody(ctx, PresenceBody);
    bridge.asks.setAway(away);
    ctx.body = { away: bridge.asks.away };
  });
};
