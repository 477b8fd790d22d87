import { QuickReplies } from '../protocol/index.js';
import { Unavailable } from '../errors.js';
import { readBody } from '../http/body.js';
import type { RouteSetup } from '../http/zones.js';
import { QuickReplyStore } from './quick-replies.js';

/** The human's quick replies (window zone): read them, and replace them whole once they are on disk. */
export const quickReplyRoutes: RouteSetup = (router, bridge) => {
  const store = new QuickReplyStore(bridge.appDir, bridge.log);
  router.get('/bridge/quick-replies', (ctx) => {
    ctx.body = store.read();
  });
  router.put('/bridge/quick-replies', async (ctx) => {
    const list = await readBody(ctx, QuickReplies);
    try {
      ctx.body = store.save(list);
    } catch (error) {
      throw new Unavailable(
        `the quick replies could not be saved (${(error as Error).message}); nothing changed — check the disk of the data dir`,
      );
    }
  });
};
