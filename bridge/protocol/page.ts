import * as z from 'zod';
import { FrameId, IsoTime, JsonValue, PageId, RequestId } from './common.js';

/** Page-side wire shapes (README "HTTP surface", page side). */

export const Frameworks = z.array(z.string().min(1).max(64)).max(32);

export const ClaimBody = z.object({
  instanceId: z.string().min(1).max(128),
  secret: z.string().min(1).max(256).optional(),
  pageKey: z.string().max(2048),
  url: z.string().max(8192),
  frameworks: Frameworks.optional(),
  title: z.string().max(1024).optional(),
});
export type ClaimBody = z.infer<typeof ClaimBody>;

export const ClaimAnswer = z.object({
  pageId: PageId,
  secret: z.string(),
  /** false while the page's origin waits for the human's approval */
  operable: z.boolean(),
});
export type ClaimAnswer = z.infer<typeof ClaimAnswer>;

export const RegisterBody = z.object({
  pageId: PageId,
  secret: z.string().max(256).optional(),
  frameIds: z.array(FrameId).min(1).max(64),
  /** url per frame id, when known */
  urls: z.record(z.string(), z.string().max(8192)).optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

/** POST /bridge/frame-check: a child frame asks whether the parent that welcomed it speaks for a bridge page. */
export const FrameCheckBody = z.object({
  pageId: PageId,
  instanceId: z.string().min(1).max(128),
  secret: z.string().min(1).max(256),
  frameId: FrameId,
  /** the parent's origin as the child's browser reported it (MessageEvent.origin) */
  parentOrigin: z.string().min(1).max(2048),
});
export type FrameCheckBody = z.infer<typeof FrameCheckBody>;

export const PageSseQuery = z.object({
  role: z.literal('page'),
  instanceId: z.string().min(1).max(128),
  frameId: FrameId.optional(),
  url: z.string().max(8192).optional(),
  frameworks: z.string().max(2048).optional().describe('comma-separated framework names'),
  secret: z.string().max(256).optional(),
});
export type PageSseQuery = z.infer<typeof PageSseQuery>;

export const AiSseQuery = z.object({
  role: z.literal('ai'),
  token: z.string().optional(),
});

/**
 * `GET /bridge/result-socket?…` (a WebSocket upgrade): the page agent's fast path for command results. The query
 * names the page and frame and proves them with the page's secret (a WebSocket, like an EventSource, cannot send
 * headers); each text message is then a ResultBody without `pageId` and `secret`, which the socket stands for.
 */
export const ResultSocketQuery = z.object({
  pageId: PageId,
  secret: z.string().max(256),
  frameId: FrameId.optional(),
});
export type ResultSocketQuery = z.infer<typeof ResultSocketQuery>;

export const ResultBody = z.discriminatedUnion('ok', [
  z.object({
    pageId: PageId,
    requestId: RequestId,
    ok: z.literal(true),
    result: JsonValue.optional(),
    secret: z.string().max(256).optional(),
  }),
  z.object({
    pageId: PageId,
    requestId: RequestId,
    ok: z.literal(false),
    error: z.string().max(8192),
    secret: z.string().max(256).optional(),
  }),
]);
export type ResultBody = z.infer<typeof ResultBody>;

export const PageEventType = z.enum([
  'page_log',
  'page_network',
  'page_error',
  'open_file',
  'pick',
  'navigate',
  'gesture',
]);
export type PageEventType = z.infer<typeof PageEventType>;

/** The page events an agent may subscribe to (aiti_hello subEvents): the watching streams, written once here. */
export const SubscribableEvent = PageEventType.extract(['page_error', 'page_log', 'page_network']);
export type SubscribableEvent = z.infer<typeof SubscribableEvent>;

export const EventBody = z.object({
  pageId: PageId,
  type: PageEventType,
  payload: JsonValue,
  frameId: FrameId.optional(),
  secret: z.string().max(256).optional(),
});
export type EventBody = z.infer<typeof EventBody>;

/** The `command` event the bridge sends down a page's SSE stream. */
export const CommandEvent = z.object({
  requestId: RequestId,
  cmd: z.string(),
  args: JsonValue,
  frameId: FrameId.optional(),
});
export type CommandEvent = z.infer<typeof CommandEvent>;

/** The `hello` event that opens a page stream: which page and frame the stream belongs to. */
export const PageHelloEvent = z.object({ pageId: PageId, frameId: FrameId, operable: z.boolean() });
export type PageHelloEvent = z.infer<typeof PageHelloEvent>;

/** One row of GET /bridge/sessions: a frame of a page. */
export const SessionRow = z.object({
  instanceId: z.string(),
  frameId: FrameId,
  pageId: PageId,
  url: z.string(),
  title: z.string().optional(),
  origin: z.string(),
  frameworks: Frameworks,
  active: z.boolean(),
  operable: z.boolean(),
  legacy: z.boolean(),
  lastSeen: IsoTime,
});
export type SessionRow = z.infer<typeof SessionRow>;

/** POST /bridge/allow-origin: the human allows a held, non-loopback page origin. */
export const AllowOriginBody = z.object({ origin: z.string().min(1).max(2048) });
export type AllowOriginBody = z.infer<typeof AllowOriginBody>;

/** Console entry kept in the bridge-side ring buffer. */
export const LogEntry = z.object({
  level: z.enum(['debug', 'log', 'info', 'warn', 'error']),
  text: z.string().max(20000),
  stack: z.string().max(20000).optional(),
  url: z.string().max(8192).optional(),
  /** an uncaught error or unhandled rejection (page_error), not a console call */
  uncaught: z.boolean().optional(),
  at: IsoTime,
});
export type LogEntry = z.infer<typeof LogEntry>;

/** Finished request kept in the bridge-side ring buffer. */
export const NetworkEntry = z.object({
  method: z.string().max(16),
  url: z.string().max(8192),
  status: z.number().int(),
  ok: z.boolean(),
  durationMs: z.number().nonnegative(),
  requestSize: z.number().int().nonnegative().optional(),
  responseSize: z.number().int().nonnegative().optional(),
  type: z.enum(['fetch', 'xhr']),
  error: z.string().max(2000).optional(),
  at: IsoTime,
});
export type NetworkEntry = z.infer<typeof NetworkEntry>;

/** page_error payload: uncaught errors and unhandled rejections. */
export const PageErrorEntry = z.object({
  message: z.string().max(20000),
  stack: z.string().max(20000).optional(),
  source: z.string().max(8192).optional(),
  kind: z.enum(['error', 'unhandledrejection']),
  at: IsoTime,
});
export type PageErrorEntry = z.infer<typeof PageErrorEntry>;

/** open_file payload: Alt+click on an element with a known source location. */
export const OpenFilePayload = z.object({
  file: z.string().min(1).max(4096),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
});
export type OpenFilePayload = z.infer<typeof OpenFilePayload>;

/** Payload of each page event type, checked on POST /bridge/event. Watching events come in batches. */
export const PageEventPayloads = {
  page_log: z.array(LogEntry).max(500),
  page_network: z.array(NetworkEntry).max(500),
  page_error: z.array(PageErrorEntry).max(100),
  open_file: OpenFilePayload,
  pick: JsonValue,
  /** `leaving`: a cross-document navigation to `url` has started (the Navigation API saw it) */
  navigate: z.object({ url: z.string().max(8192), leaving: z.boolean().optional() }),
  gesture: JsonValue,
} as const satisfies Record<PageEventType, z.ZodType>;
