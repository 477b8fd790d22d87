import { QuickReplies } from '../protocol/index.js';
import { readBody } from '../http/body.js';
import type { RouteSetup } from '../http/zones.js';
import { QuickReplyStore } from './quick-replies.js';

/** The human's quick replies (window zone): read them, and replace them whole once they are on disk. */
export const quickReplyRoutes: RouteSetup = (router, bridge) => {
  const store = new QuickReplyStore(bridge.appDir, bridge.log);
  router.get('/bridge/quick-replies', async (ctx) => {
    ctx.body = await store.read();
  });
  // a DiskError (503) says exactly what is on disk: nothing changed, or the new list, unconfirmed
  router.put('/bridge/quick-replies', async (ctx) => {
    const list = await readBody(ctx, QuickReplies);
    ctx.body = await store.save(list);
  });
};
