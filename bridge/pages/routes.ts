import {
  ClaimBody,
  EventBody,
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

/** Results may carry screenshots: they get a larger body limit than the rest. */
const RESULT_LIMIT = 16 * 1024 * 1024;
const EVENT_LIMIT = 2 * 1024 * 1024;

/**
 * Page side of README "HTTP surface": mounted in the page zone, whose router opens CORS (pages come from any dev
 * server); every route checks the page's secret.
 */
export const pageRoutes: RouteSetup = (router, bridge) => {
  const { pages, requests, pageEvents } = bridge;

  // the zone's CORS middleware answers the preflight; these routes let the router match it
  router.options(
    ['/bridge/claim', '/bridge/register', '/bridge/result', '/bridge/event', '/bridge/sse', STREAM_PATHS.page],
    () => undefined,
  );

  /** GET /bridge/sse?role=page: the page's command stream. Refusals answer plainly before the stream opens. */
  router.get(STREAM_PATHS.page, (ctx) => {
    const query = readQuery(ctx, PageSseQuery);
    const page = pages.admit(query, ctx.get('origin') || undefined);
    const stream = new SseStream(ctx, {
      pingMs: bridge.config.pingMs,
      headers: { 'Access-Control-Allow-Origin': '*' },
    });
    const hello: PageHelloEvent = {
      pageId: page.pageId,
      frameId: query.frameId ?? MAIN_FRAME,
      operable: pages.isOperable(page),
    };
    stream.send('hello', hello);
    pages.attach(page, query, stream);
  });

  router.post('/bridge/claim', async (ctx) => {
    const body = await readBody(ctx, ClaimBody);
    ctx.body = pages.claim(body, ctx.get('origin') || undefined);
  });

  router.post('/bridge/register', async (ctx) => {
    const body = await readBody(ctx, RegisterBody);
    const page = pages.authorize(body.pageId, body.secret);
    pages.registerFrames(page, body.frameIds, body.urls);
    ctx.status = 204;
  });

  router.post('/bridge/result', async (ctx) => {
    const body = await readBody(ctx, ResultBody, RESULT_LIMIT);
    const page = pages.authorize(body.pageId, body.secret);
    requests.resolve(body);
    pages.touch(page);
    ctx.status = 204;
  });

  router.post('/bridge/event', async (ctx) => {
    const body = await readBody(ctx, EventBody, EVENT_LIMIT);
    const page = pages.authorize(body.pageId, body.secret);
    const payload = PageEventPayloads[body.type].parse(body.payload);
    pages.touch(page);
    pageEvents.emit({
      pageId: page.pageId,
      type: body.type,
      payload: payload as typeof body.payload,
      ...(body.frameId ? { frameId: body.frameId } : {}),
    });
    ctx.status = 204;
  });
};
