import { AnswerBody, PresenceBody } from '../protocol/index.js';
import type { RouteSetup } from '../http/app.js';
import { readBody } from '../http/body.js';

/** The window's side of asks: answer/reject/pause/resume, and presence (token + own origin only). */
export const askRoutes: RouteSetup = (router, bridge, guards) => {
  router.post('/bridge/answer', guards.window, async (ctx) => {
    const body = await readBody(ctx, AnswerBody);
    ctx.body = bridge.asks.act(body);
  });

  router.post('/bridge/presence', guards.window, async (ctx) => {
    const { away } = await readBody(ctx, PresenceBody);
    bridge.asks.setAway(away);
    ctx.body = { away: bridge.asks.away };
  });
};
