import { applyPagesDelta } from './pages-delta.js';
import type {
  AgentView,
  AskEnd,
  AskUpdate,
  AskView,
  InboxCounts,
  InboxStatusAnswer,
  Message,
  MessageStatusEvent,
  PagesDelta,
  SessionRow,
  StateEvent,
} from '../../bridge/protocol/index.js';

/** How a card ended, as the window shows it until it moves to History. */
export interface Ended {
  /** the bridge's word (absent when the ask ended while this window was reconnecting) */
  outcome?: AskEnd;
  /** this window sent the answer that ended it */
  here: boolean;
  /** when it ended, on the monotonic clock */
  at: number;
}

/** An ask as the window holds it: the server's view plus when it arrived, on the monotonic clock. */
export interface OpenAsk extends AskView {
  receivedAt: number;
  /** the full countdown, fixed when the ask is first seen, so the bar moves at one speed through pauses */
  totalMs: number;
  /** an answer from this window is on its way */
  sending?: boolean;
  /** set once the ask ended: the card stays a moment with its outcome, then goes to History */
  ended?: Ended;
}

function openAsk(ask: AskView, now: number, known?: OpenAsk): OpenAsk {
  const span = Date.parse(ask.deadline) - Date.parse(ask.createdAt);
  const totalMs = known?.totalMs ?? Math.max(ask.remainingMs, Number.isFinite(span) ? span : 0, 1);
  return { ...ask, receivedAt: now, totalMs };
}

/**
 * `impostor`: what answers on the port could not prove it holds the token; the window sent it nothing and stopped.
 * `unpaired`: a device's window whose device was revoked at the desk.
 */
export type Connection = 'connecting' | 'live' | 'reconnecting' | 'impostor' | 'no_token' | 'unpaired';

export interface WindowState {
  connection: Connection;
  version?: string;
  asks: OpenAsk[];
  agents: AgentView[];
  pages: SessionRow[];
  heldOrigins: string[];
  inbox: Record<string, InboxCounts>;
  away: boolean;
  /** every loaded message, newest first, one entry per id */
  messages: Message[];
  /** how many `state` events arrived: each one starts a fresh (re)connection */
  generation: number;
  notices: Notice[];
  /** the last event the window could not read, shown so nothing is dropped silently */
  problem?: string;
}

export type Action =
  | { type: 'connection'; connection: Connection }
  | { type: 'state'; state: StateEvent; now: number }
  | { type: 'ask'; ask: AskView; now: number }
  | { type: 'ask_update'; update: AskUpdate; now: number }
  | { type: 'sending'; askId: string; sending: boolean }
  | { type: 'ask_gone'; askId: string }
  | { type: 'agents'; agents: AgentView[] }
  | { type: 'pages'; delta: PagesDelta }
  | { type: 'messages'; messages: Message[] }
  | { type: 'message_status'; status: MessageStatusEvent }
  | { type: 'inbox_status'; answer: InboxStatusAnswer }
  | { type: 'presence'; away: boolean }
  | { type: 'notify'; notice: Omit<Notice, 'id'> }
  | { type: 'dismiss'; id: number }
  | { type: 'problem'; problem: string };

/** A user_notify from an agent: in the notices list until dismissed or a minute old (History keeps it). */
export interface Notice {
  id: number;
  agentId: string;
  title?: string;
  body: string;
  /** when it arrived, wall clock ms (a reload keeps it, so the age goes on counting) */
  at?: number;
}

/** Messages kept in memory; older ones are paged back in from the journal when asked for. */
export const MAX_LOADED_MESSAGES = 5000;

export const initialState: WindowState = {
  connection: 'connecting',
  asks: [],
  agents: [],
  pages: [],
  heldOrigins: [],
  inbox: {},
  away: false,
  messages: [],
  notices: [],
  generation: 0,
};

/** Notices kept in the list at most; older ones give way (History keeps every one). */
const MAX_NOTICES = 20;
let noticeIds = 0;

/** Cards in arrival order: a new card joins at the end, so it never moves the one the human is reading. */
const oldestFirst = (a: { createdAt: string }, b: { createdAt: string }) =>
  a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0;

/** Merges messages by id (a later copy wins: its status is newer), newest first, capped. */
export function mergeMessages(current: Message[], incoming: Message[]): Message[] {
  if (!incoming.length) return current;
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const message of incoming) byId.set(message.id, message);
  return [...byId.values()]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.id < b.id ? 1 : -1))
    .slice(0, MAX_LOADED_MESSAGES);
}

/** The title the bridge gives a disk problem it tells the window of as it happens (inbox/setup.ts). */
export const STORAGE_TITLE = 'The bridge cannot write to its data dir';

/**
 * A window that connects while the bridge cannot write (a full disk, a deleted data dir) says so too, not only one
 * that was connected when the writes began to fail; once, however often it reconnects.
 */
function withStorageProblem(notices: Notice[], problem: string | undefined): Notice[] {
  if (!problem || notices.some((n) => n.agentId === 'bridge' && n.body === problem)) return notices;
  noticeIds = Math.max(noticeIds, ...notices.map((n) => n.id)) + 1;
  return [...notices, { id: noticeIds, agentId: 'bridge', title: STORAGE_TITLE, body: problem }].slice(-MAX_NOTICES);
}

export function reduce(state: WindowState, action: Action): WindowState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: action.connection };
    case 'state': {
      const { asks, agents, pages, inbox, heldOrigins, away, version, storageProblem } = action.state;
      const open = new Set(asks.map((a) => a.askId));
      const ends = new Map((action.state.recentEnds ?? []).map((e) => [e.askId, e.outcome]));
      // a card that ended while the stream was down (or the bridge restarted) stays a moment too, saying how
      const gone = state.asks
        .filter((a) => !open.has(a.askId))
        .map((a) => {
          if (a.ended) return a;
          const outcome = ends.get(a.askId);
          return { ...a, ended: { here: false, at: action.now, ...(outcome ? { outcome } : {}) } };
        });
      return {
        ...state,
        connection: 'live',
        version,
        asks: [
          ...gone,
          ...asks.map((ask) => {
            const known = state.asks.find((a) => a.askId === ask.askId);
            return { ...openAsk(ask, action.now, known), ...(known?.sending ? { sending: true } : {}) };
          }),
        ].sort(oldestFirst),
        agents,
        pages,
        inbox,
        heldOrigins,
        away,
        notices: withStorageProblem(state.notices, storageProblem),
        generation: state.generation + 1,
      };
    }
    case 'ask': {
      const known = state.asks.find((a) => a.askId === action.ask.askId);
      const others = state.asks.filter((a) => a !== known);
      return { ...state, asks: [...others, openAsk(action.ask, action.now, known)].sort(oldestFirst) };
    }
    case 'sending':
      return {
        ...state,
        asks: state.asks.map((a) => (a.askId === action.askId ? { ...a, sending: action.sending } : a)),
      };
    case 'ask_gone':
      return { ...state, asks: state.asks.filter((a) => a.askId !== action.askId) };
    case 'ask_update': {
      const { update } = action;
      if (update.status !== 'open') {
        return {
          ...state,
          asks: state.asks.map((a) =>
            a.askId === update.askId && !a.ended
              ? {
                  ...a,
                  paused: update.paused,
                  ended: {
                    ...(update.outcome ? { outcome: update.outcome } : {}),
                    here: Boolean(a.sending) && update.outcome?.decidedBy === 'human',
                    at: action.now,
                  },
                }
              : a,
          ),
        };
      }
      return {
        ...state,
        asks: state.asks.map((a) =>
          a.askId === update.askId
            ? {
                ...a,
                deadline: update.deadline,
                remainingMs: update.remainingMs,
                paused: update.paused,
                receivedAt: action.now,
              }
            : a,
        ),
      };
    }
    case 'agents':
      return { ...state, agents: action.agents };
    case 'pages':
      return { ...state, pages: applyPagesDelta(state.pages, action.delta), heldOrigins: action.delta.heldOrigins };
    case 'messages':
      return { ...state, messages: mergeMessages(state.messages, action.messages) };
    case 'message_status': {
      const { id, status } = action.status;
      return { ...state, messages: state.messages.map((m) => (m.id === id ? { ...m, status } : m)) };
    }
    case 'inbox_status':
      return {
        ...state,
        inbox: Object.fromEntries(action.answer.agents.map((row) => [row.agentId, row.counts])),
      };
    case 'presence':
      return { ...state, away: action.away };
    case 'notify': {
      // ids go on from the notices kept over a reload
      noticeIds = Math.max(noticeIds, ...state.notices.map((n) => n.id)) + 1;
      const notice = { ...action.notice, id: noticeIds, at: action.notice.at ?? Date.now() };
      return { ...state, notices: [...state.notices, notice].slice(-MAX_NOTICES) };
    }
    case 'dismiss':
      return { ...state, notices: state.notices.filter((n) => n.id !== action.id) };
    case 'problem':
      return { ...state, problem: action.problem };
  }
}

/** The asks still waiting for an answer (the ended ones linger on screen but count for nothing). */
export const openAsks = (asks: OpenAsk[]): OpenAsk[] => asks.filter((a) => !a.ended);

/** What the countdown shows now: the server's remainingMs at receipt, minus the monotonic time since. */
export function remainingNow(ask: Pick<OpenAsk, 'remainingMs' | 'paused' | 'receivedAt'>, now: number): number {
  return ask.paused ? ask.remainingMs : Math.max(0, ask.remainingMs - (now - ask.receivedAt));
}
