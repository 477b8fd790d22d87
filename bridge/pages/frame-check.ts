import type { FrameCheckBody } from '../protocol/index.js';
import { Forbidden } from '../errors.js';
import type { Page, PageRegistry } from './registry.js';

/**
 * POST /bridge/frame-check: a child frame asks before it trusts a parent's `frame-welcome`. Any website can frame
 * the app and answer `frame-hello`, so the bridge, not the parent, says whether the welcome is good: the session
 * must be real (pageId + secret + instanceId), the frame id registered by the parent, the page operable, and the
 * parent's origin (as the child's browser reported it) one of this page's documents' origins (the page's Origin or
 * a frame stream's). A website can only hand out sessions of its own pages, which are held until the human allows
 * its origin.
 */
export function checkWelcome(pages: PageRegistry, body: FrameCheckBody): Page {
  const page = pages.authorize(body.pageId, body.secret);
  const refuse = (why: string) =>
    new Forbidden(`frame-welcome refused: ${why}; the frame connects as a page of its own`, 'parentOrigin');
  if (page.instanceId !== body.instanceId) throw refuse(`instanceId "${body.instanceId}" is not page ${page.pageId}'s`);
  if (!page.frames.has(body.frameId)) throw refuse(`page ${page.pageId} registered no frame "${body.frameId}"`);
  if (!pages.isOperable(page)) throw refuse(`page ${page.pageId} (${page.origin}) is held`);
  const origins = new Set([page.origin, ...[...page.frames.values()].map((f) => f.origin)]);
  if (!origins.has(body.parentOrigin))
    throw refuse(`the parent's origin "${body.parentOrigin}" is not an origin of page ${page.pageId}`);
  return page;
}
