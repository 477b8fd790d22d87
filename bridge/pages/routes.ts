import type { Context } from 'koa';
import {
  ClaimBody,
  EventBody,
  FrameCheckBody,
  MAIN_FRAME,
  PageEventPayloads,
  PageSseQuery,
  RegisterBody,
  ResultBody,
  type PageHelloEvent,
} from '../protocol/index.js';
import { readBody, readQuery } from '../http/body.js';
import { SseStream } from '../http/sse.js';
import { STREAM_PATHS, type RouteSetup } from '../http/zones.js';
import { checkWelcome } from './frame-check.js';

/** Results may carry screenshots: they get a larger body limit than the rest. */
const RESULT_LIMIT = 16 * 1024 * 1024;
const EVENT_LIMIT = 2 * 1024 * 1024;
/** Events kept in the page's buffers, within its byte budget. */
const BUFFERED = new Set(['page_log', 'page_network', 'page_error']);

/**
 * Page side of README "HTTP surface": mounted in the page zone, whose router opens CORS (pages come from any dev
 * server); every route checks the page's secret.
 */
export const pageRoutes: RouteSetup = (router, bridge) => {
  const { pages, requests, pageEvents } = bridge;

  // the zone's CORS middleware answers the preflight; these routes let the router match it
  router.options(
    [
      '/bridge/claim',
      '/bridge/register',
      '/bridge/result',
      '/bridge/event',
      '/bridge/frame-check',
      '/bridge/sse',
      STREAM_PATHS.page,
    ],
    () => undefined,
  );

  /** GET /bridge/sse?role=page: the page's command stream. Refusals answer plainly before the stream opens. */
  router.get(STREAM_PATHS.page, async (ctx) => {
    const query = readQuery(ctx, PageSseQuery);
    const page = pages.admit(query, originOf(ctx));
    // a page without a secret gets its id here: on disk before the hello names it
    await pages.recorded(page);
    const stream = new SseStream(ctx, {
      pingMs: bridge.config.pingMs,
      headers: { 'Access-Control-Allow-Origin': '*' },
      limits: bridge.limits,
    });
    const hello: PageHelloEvent = {
      pageId: page.pageId,
      frameId: query.frameId ?? MAIN_FRAME,
      operable: pages.isOperable(page),
    };
    stream.send('hello', hello);
    pages.attach(page, query, stream, originOf(ctx));
  });

  router.post('/bridge/claim', async (ctx) => {
    const body = await readBody(ctx, ClaimBody);
    ctx.body = await pages.claim(body, originOf(ctx));
  });

  router.post('/bridge/register', async (ctx) => {
    const body = await readBody(ctx, RegisterBody);
    const page = pages.authorize(body.pageId, body.secret, originOf(ctx));
    pages.registerFrames(page, body.frameIds, body.urls);
    ctx.status = 204;
  });

  router.post('/bridge/frame-check', async (ctx) => {
    checkWelcome(pages, await readBody(ctx, FrameCheckBody));
    ctx.status = 204;
  });

  router.post('/bridge/result', async (ctx) => {
    const body = await readBody(ctx, ResultBody, RESULT_LIMIT);
    const page = pages.authorize(body.pageId, body.secret, originOf(ctx));
    requests.resolve(body, 'post');
    pages.touch(page);
    // The agent's answer leaves first: it is written in the microtasks that follow resolve(), and on loopback each
    // write costs the writer the reader's wake-up, so the page's 204 (nobody waits on it) goes after them.
    await new Promise((resolve) => setImmediate(resolve));
    ctx.status = 204;
  });

  router.post('/bridge/event', async (ctx) => {
    const body = await readBody(ctx, EventBody, EVENT_LIMIT);
    const page = pages.authorize(body.pageId, body.secret, originOf(ctx));
    const payload = PageEventPayloads[body.type].parse(body.payload);
    if (BUFFERED.has(body.type)) bridge.buffers.admit(page.pageId, JSON.stringify(payload).length);
    pages.touch(page);
    // A held page is any website's page: its console text and file paths go nowhere near agents or the editor.
    if (!pages.isOperable(page)) {
      pageEvents.drop('held', body.type);
      ctx.status = 204;
      return;
    }
    pageEvents.emit({
      pageId: page.pageId,
      type: body.type,
      payload: payload as typeof body.payload,
      ...(body.frameId ? { frameId: body.frameId } : {}),
    });
    ctx.status = 204;
  });
};

/** The browser's Origin header: the only word on a page's origin that a website cannot choose. */
function originOf(ctx: Context): string | undefined {
  return ctx.get('origin') || undefined;
}
