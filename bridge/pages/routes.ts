import type { Router } from '@koa/router';
import type { Context } from 'koa';
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
import type { BridgeContext } from '../context.js';
import { readBody, readQuery } from '../http/body.js';
import { openCors } from '../http/guard.js';
import { SseStream } from '../http/sse.js';

/** Results may carry screenshots: they get a larger body limit than the rest. */
const RESULT_LIMIT = 16 * 1024 * 1024;
const EVENT_LIMIT = 2 * 1024 * 1024;

/** Page side of README "HTTP surface": CORS open (pages come from any dev server), secret-checked. */
export function pageRoutes(router: Router, bridge: BridgeContext): void {
  const { pages, requests, pageEvents } = bridge;
  const cors = openCors();

  router.options(['/bridge/claim', '/bridge/register', '/bridge/result', '/bridge/event', '/bridge/sse'], cors);

  router.post('/bridge/claim', cors, async (ctx) => {
    const body = await readBody(ctx, ClaimBody);
    ctx.body = pages.claim(body, ctx.get('origin') || undefined);
  });

  router.post('/bridge/register', cors, async (ctx) => {
    const body = await readBody(ctx, RegisterBody);
    const page = pages.authorize(body.pageId, body.secret);
    pages.registerFrames(page, body.frameIds, body.urls);
    ctx.status = 204;
  });

  router.post('/bridge/result', cors, async (ctx) => {
    const body = await readBody(ctx, ResultBody, RESULT_LIMIT);
    const page = pages.authorize(body.pageId, body.secret);
    requests.resolve(body);
    pages.touch(page);
    ctx.status = 204;
  });

  router.post('/bridge/event', cors, async (ctx) => {
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
}

/** GET /bridge/sse?role=page: the page's command stream. Refusals answer plainly before the stream opens. */
export function openPageStream(ctx: Context, bridge: BridgeContext): void {
  const query = readQuery(ctx, PageSseQuery);
  const page = bridge.pages.admit(query, ctx.get('origin') || undefined);
  const stream = new SseStream(ctx, { pingMs: bridge.config.pingMs, headers: { 'Access-Control-Allow-Origin': '*' } });
  const hello: PageHelloEvent = {
    pageId: page.pageId,
    frameId: query.frameId ?? MAIN_FRAME,
    operable: bridge.pages.isOperable(page),
  };
  stream.send('hello', hello);
  bridge.pages.attach(page, query, stream);
}
