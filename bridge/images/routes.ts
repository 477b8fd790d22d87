import { NotFound } from '../errors.js';
import type { RouteSetup } from '../http/zones.js';

/** The window shows the images of pushes and answers in History (mounted in the window zone: token only). */
export const imageRoutes: RouteSetup = (router, bridge) => {
  router.get('/bridge/images/:id', async (ctx) => {
    const id = ctx.params.id ?? '';
    const file = await bridge.images.file(id);
    if (!file) throw new NotFound(`no image "${id}" in the data dir (it was deleted, or never kept)`, 'id');
    ctx.set('Content-Type', file.mimeType);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // an id names one file forever: the window may keep it
    ctx.set('Cache-Control', 'private, max-age=86400, immutable');
    ctx.body = file.bytes;
  });
};
