import * as z from 'zod';
import { AgentId, AskId, IsoTime, JsonValue, MsgId } from './common.js';
import { ImageRef, ImageUploads } from './images.js';
import { AskCountdown, AskOpened } from './asks.js';

/** Inbox messages and the journal (README "Inbox, push and the journal"). */

export const MessageKind = z.enum([
  'user_message',
  'user_answer',
  'page_error',
  'page_log',
  'page_network',
  'agent_note',
  /** the record of an ask (payload: AskRecord), journaled as consumed: History, never the agent's inbox */
  'ask',
]);
export type MessageKind = z.infer<typeof MessageKind>;

export const MessageStatus = z.enum(['pending', 'delivered', 'consumed']);
export type MessageStatus = z.infer<typeof MessageStatus>;

export const Message = z.object({
  id: MsgId,
  kind: MessageKind,
  /** `bridge` for what the bridge decided itself (a time-out, a withdrawn or away ask), not the human */
  from: z.enum(['window', 'page', 'agent', 'bridge']),
  agentId: AgentId,
  text: z.string().optional(),
  payload: JsonValue.optional(),
  /** what the message refers to (an ask id for a user_answer, a page id …), when it refers to something */
  ref: z.string().max(256).optional(),
  /** images that came with it (kept in the data dir; aiti_inbox hands them over as image content) */
  images: z.array(ImageRef).optional(),
  at: IsoTime,
  status: MessageStatus,
});
export type Message = z.infer<typeof Message>;

export const DeliveryChannel = z.enum(['channel', 'sampling', 'inbox']);
export type DeliveryChannel = z.infer<typeof DeliveryChannel>;

/** Journal lines: a `session` line first, then `message` and `status_change` lines. */
export const JournalLine = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session'),
    agentId: AgentId,
    startedAt: IsoTime,
    bridgeVersion: z.string(),
    client: z.string().optional(),
  }),
  z.object({ type: z.literal('message'), message: Message }),
  z.object({
    type: z.literal('status_change'),
    id: MsgId,
    status: MessageStatus,
    at: IsoTime,
  }),
  /** aiti_hello renamed the agent: its messages up to `at` belong to `to` from now on (written in `from`'s journal) */
  z.object({ type: z.literal('renamed'), from: AgentId, to: AgentId, at: IsoTime }),
  /** an ask opened (its end is the `ask` message of the same ask id); a restart shows it again or ends it */
  z.object({ type: z.literal('ask_opened'), ask: AskOpened }),
  /** the human paused or resumed an ask: how much time it had left then */
  z.object({ type: z.literal('ask_countdown'), ...AskCountdown.shape }),
  /**
   * the asker of a sync ask stopped waiting (its client's time-out was near): its outcome goes to the agent's inbox,
   * as an async ask's, and a restart shows it again instead of ending it
   */
  z.object({ type: z.literal('ask_handed_over'), askId: AskId, at: IsoTime }),
]);
export type JournalLine = z.infer<typeof JournalLine>;

export const JOURNAL_MAX_BYTES = 2 * 1024 * 1024;

/** POST /bridge/push */
export const PushBody = z.object({
  to: z
    .union([AgentId, z.literal('all')])
    .optional()
    .describe('an agent id, or "all" (the default)'),
  text: z.string().min(1, 'text must not be empty').max(100_000),
  kind: z.enum(['user_message', 'agent_note']).optional(),
  ref: z.string().max(256).optional().describe('what the message refers to, e.g. an ask id or a page id'),
  images: ImageUploads.optional().describe('images pasted or dropped into the message (base64)'),
});
export type PushBody = z.infer<typeof PushBody>;

export const PushAnswer = z.object({
  delivered: z.array(
    z.object({
      agentId: AgentId,
      via: DeliveryChannel,
      msgId: MsgId,
      /** images `via` could not carry (a channel notification is text only): they wait in the agent's aiti_inbox */
      imagesWaiting: z.number().int().positive().optional(),
    }),
  ),
});
export type PushAnswer = z.infer<typeof PushAnswer>;

/** GET /bridge/messages */
export const MessagesQuery = z.object({
  agentId: AgentId.optional(),
  before: z.string().max(128).optional().describe('a message id or ISO time: only older messages'),
  limit: z.coerce.number().int().positive().max(1000).optional(),
});
export type MessagesQuery = z.infer<typeof MessagesQuery>;

export const MessagesAnswer = z.object({
  messages: z.array(Message),
  /** pass as `before` for the next (older) page; absent at the end */
  nextBefore: z.string().optional(),
});
export type MessagesAnswer = z.infer<typeof MessagesAnswer>;

export const InboxCounts = z.object({
  pending: z.number().int().nonnegative(),
  delivered: z.number().int().nonnegative(),
  consumed: z.number().int().nonnegative(),
});
export type InboxCounts = z.infer<typeof InboxCounts>;

/** GET /bridge/inbox-status: one row per agent. */
export const InboxStatusRow = z.object({
  agentId: AgentId,
  counts: InboxCounts,
  lastActivity: IsoTime.optional(),
});
export const InboxStatusAnswer = z.object({ agents: z.array(InboxStatusRow) });
export type InboxStatusAnswer = z.infer<typeof InboxStatusAnswer>;

/** aiti_inbox result: a page of the messages not acknowledged yet */
export const InboxResult = z.object({
  messages: z.array(Message),
  queueSize: z.number().int().nonnegative(),
  /** messages not acknowledged yet after this page (absent from an older bridge) */
  left: z.number().int().nonnegative().optional(),
  /** pass as `after` to read the next page; absent when nothing is left */
  next: MsgId.optional(),
  /** images of these messages that did not fit this answer, each `<message id>#<n>`: pass one as `image` */
  imagesWaiting: z.array(z.string()).optional(),
  acked: z.array(MsgId).optional(),
  unknownAcks: z.array(z.string()).optional(),
});
export type InboxResult = z.infer<typeof InboxResult>;
