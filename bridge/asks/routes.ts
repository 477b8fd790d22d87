import { AnswerBody, MAX_IMAGES_BODY_BYTES, PresenceBody } from '../protocol/index.js';
import type { RouteSetup } from '../http/zones.js';
import { DEFAULT_BODY_LIMIT, readBody } from '../http/body.js';
import { partyOf } from '../http/zones.js';

/** The window's side of asks: answer/reject/pause/resume, and presence (mounted in the window zone). */
export const askRoutes: RouteSetup = (router, bridge) => {
  router.post('/bridge/answer', async (ctx) => {
    const body = await readBody(ctx, AnswerBody, DEFAULT_BODY_LIMIT + MAX_IMAGES_BODY_BYTES);
    // who decided: the desk, or the paired device by its name (History and every window say which)
    const device = (ctx.state as { deviceName?: string }).deviceName;
    const decidedOn =
      partyOf(ctx) === 'desk'
        ? { window: 'desk' as const }
        : { window: 'device' as const, ...(device ? { device } : {}) };
    ctx.body = await bridge.asks.act(body, () => bridge.images.saveAll(body.images), decidedOn);
  });

  router.post('/bridge/presence', async (ctx) => {
    const { away } = await readBody(ctx, PresenceBody);
    bridge.asks.setAway(away);
    ctx.body = { away: bridge.asks.away };
  });
};
