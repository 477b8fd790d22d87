import * as z from 'zod';
import { AgentId, AskId, IsoTime, MsgId, PageId } from './common.js';
import { AskEnd, AskUpdate, AskView } from './asks.js';
import { InboxCounts, Message, MessageStatus } from './inbox.js';
import { SessionRow } from './page.js';
import { DevicesEvent } from './devices.js';

/** The human window's stream (GET /bridge/sse?role=ai): a `state` event first, then deltas. */

export const AgentView = z.object({
  agentId: AgentId,
  /** the MCP client's name and version, when it said */
  client: z.string().optional(),
  online: z.boolean(),
  transport: z.enum(['streamable', 'stateless', 'stdio', 'unknown']),
  pageId: PageId.optional(),
  channels: z.array(z.enum(['channel', 'sampling', 'inbox'])),
  unread: z.number().int().nonnegative(),
  lastSeen: IsoTime,
});
export type AgentView = z.infer<typeof AgentView>;

export const StateEvent = z.object({
  version: z.string(),
  asks: z.array(AskView),
  agents: z.array(AgentView),
  pages: z.array(SessionRow),
  inbox: z.record(z.string(), InboxCounts),
  /** origins of pages held until the human allows them */
  heldOrigins: z.array(z.string()),
  away: z.boolean(),
  /** set while the bridge cannot write to its data dir: what failed and what to do */
  storageProblem: z.string().optional(),
  /**
   * asks that ended lately (the newest 50), so a window that reconnects — after a restart too — shows how each card
   * it still had ended, rather than only that it did
   */
  recentEnds: z.array(z.object({ askId: AskId, outcome: AskEnd })).optional(),
});
export type StateEvent = z.infer<typeof StateEvent>;

/**
 * The `pages` event: what changed since the last one (at most a few a second). Every row of a page in `upsert`
 * replaces that page's rows; a page in `gone` was forgotten. `heldOrigins` is the whole current list.
 */
export const PagesDelta = z.object({
  upsert: z.array(SessionRow),
  gone: z.array(PageId),
  heldOrigins: z.array(z.string()),
});
export type PagesDelta = z.infer<typeof PagesDelta>;

export const MessageStatusEvent = z.object({
  id: MsgId,
  agentId: AgentId,
  status: MessageStatus,
  at: IsoTime,
});
export type MessageStatusEvent = z.infer<typeof MessageStatusEvent>;

/** Every event of the role=ai stream, by SSE event name. */
export const AiEvents = {
  state: StateEvent,
  ask: AskView,
  ask_update: AskUpdate,
  message: Message,
  message_status: MessageStatusEvent,
  agents: z.object({ agents: z.array(AgentView) }),
  pages: PagesDelta,
  notify: z.object({ agentId: AgentId, title: z.string().optional(), body: z.string(), pageId: PageId.optional() }),
  /** the human was marked away or back (user_presence answer, or the window reporting idle) */
  presence: z.object({ away: z.boolean() }),
  /** paired devices, devices waiting for approval, agent tokens: the desk's window only, never a device's */
  devices: DevicesEvent,
  ping: z.object({ at: IsoTime }),
} as const;
export type AiEventName = keyof typeof AiEvents;
export type AiEvent = { [K in AiEventName]: { event: K; data: z.infer<(typeof AiEvents)[K]> } }[AiEventName];

export const HealthAnswer = z.object({ ok: z.literal(true), version: z.string() });

/**
 * GET /bridge/token-proof?nonce=&of=: whoever is about to send a token (the window, the desktop app, the stdio
 * shim) first checks that what answers on the port holds it. `of=agent` proves the agents' token (the shim holds
 * only that one); the default is the human's.
 */
export const TokenProofQuery = z.object({
  nonce: z.string().min(16).max(128),
  of: z.enum(['human', 'agent']).default('human'),
  /**
   * the remote listener: the id of the agent token to prove (`aiti_agent_<id>_…`), keyed with its stored hash and
   * bound to no port (bridge/credentials.ts); the local listener refuses it
   */
  id: z
    .string()
    .regex(/^[0-9a-f]{16}$/)
    .optional(),
});
export const TokenProofAnswer = z.object({ proof: z.string() });

/** POST /bridge/presence: the window reports the human present or away (idle). */
export const PresenceBody = z.object({ away: z.boolean() });
