import * as z from 'zod';
import { AgentId, AskId, IsoTime, JsonValue, PageId } from './common.js';
import { ImageRef, ImageUploads } from './images.js';

/** Asking the human (README "Asking the human"): ask kinds, the `ask` event, answers and outcomes. */

export const AskKind = z.enum([
  'user_confirm',
  'user_choose',
  'user_input',
  'user_presence',
  'user_pick_element',
  /** a dangerous page command waiting for the human's confirmation */
  'page_command',
]);
export type AskKind = z.infer<typeof AskKind>;

export const RejectReason = z.enum(['not_now', 'wrong_approach', 'need_info', 'stop_task', 'other']);
export type RejectReason = z.infer<typeof RejectReason>;

export const AskStatus = z.enum(['answered', 'rejected', 'timed_out', 'away', 'cancelled']);
export type AskStatus = z.infer<typeof AskStatus>;

export const DEFAULT_ASK_TIMEOUT_MS = 120_000;

/**
 * What the bridge says in its own words to the human (a page command's question, why an ask ended), as a code and
 * its values: the window says it in the human's language. The English text beside it stays for agents and logs.
 */
export const SaidCode = z.enum([
  /** a page command: `agent` wants to run a script in the page on `page` */
  'page_script',
  /** a page command: `agent` wants to write `area` storage (`key`, when named) on `page` */
  'page_storage',
  /** a page command: `agent` wants to navigate away from `page` (to `to`, when named) */
  'page_navigate',
  /** no answer within `seconds` s (the countdown was paused `pausedSeconds` s, when it was) */
  'no_answer_within',
  /** the human is marked away; the question was not shown */
  'away_not_shown',
  /** the human is marked away; the page command did not run */
  'away_command_not_run',
  /** the tool call was cancelled or the client disconnected */
  'call_cancelled',
  /** the agent's client stops waiting for a call after `seconds` s (a page command's ask, withdrawn then) */
  'client_stopped_waiting',
  /** the human closed the element picker on the page (Esc) */
  'pick_closed_on_page',
  /** the element picker on the page timed out */
  'pick_timed_out_on_page',
  /** another pick replaced this one on the page */
  'pick_replaced',
  /** the page could not run the picker, or answered it with something that is not an element */
  'pick_failed',
  /** the bridge restarted (a sync ask's call died with it) */
  'bridge_restarted',
  /** the bridge is shutting down; ask again once it is back */
  'bridge_shutting_down',
]);
export type SaidCode = z.infer<typeof SaidCode>;
export const Said = z.object({
  code: SaidCode,
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Said = z.infer<typeof Said>;

/**
 * Where the human decided: at the desk (the window with the human's token), or on a paired device, by its name.
 * Absent on endings nobody decided in a window (a time-out, the agent withdrawing, a pick on the page).
 */
export const DecidedOn = z.object({
  window: z.enum(['desk', 'device']),
  /** the paired device's name, as it was paired */
  device: z.string().max(60).optional(),
});
export type DecidedOn = z.infer<typeof DecidedOn>;
export const MAX_ASK_TIMEOUT_MS = 3_600_000;

/**
 * What one ask may hold (README "Asking the human" → limits). A card is for a person to read: past these an agent
 * puts the rest in a file and names it. The bytes of open asks per agent are the asks' own budget (bridge/limits.ts
 * `askBytesPerAgent`), so that no agent's asks can fill the human's window.
 */
export const ASK_LIMITS = {
  /** characters of a prompt */
  promptChars: 32_000,
  /** characters of one choice */
  choiceChars: 500,
  /** choices of one user_choose */
  choices: 50,
  /** characters of a user_input's defaultValue */
  defaultValueChars: 32_000,
} as const;

const tooLong = (what: string, limit: number, name: keyof typeof ASK_LIMITS, hint: string) =>
  `${what} may be at most ${limit.toLocaleString('en')} characters (limit ${name}); ${hint}`;

/** An ask's prompt: not empty, within ASK_LIMITS.promptChars. */
export const AskPrompt = z
  .string()
  .min(1, 'the prompt is empty: say what you ask the human')
  .max(
    ASK_LIMITS.promptChars,
    tooLong('a prompt', ASK_LIMITS.promptChars, 'promptChars', 'put the details in a file and name it in the prompt'),
  );

/** One choice of a user_choose. */
export const AskChoice = z
  .string()
  .min(1, 'a choice is empty')
  .max(
    ASK_LIMITS.choiceChars,
    tooLong('a choice', ASK_LIMITS.choiceChars, 'choiceChars', 'keep choices short and explain them in the prompt'),
  );

/** The choices of a user_choose: 2 to ASK_LIMITS.choices. */
export const AskChoices = z
  .array(AskChoice)
  .min(2, 'give at least 2 choices (for yes/no use user_confirm)')
  .max(ASK_LIMITS.choices, `at most ${ASK_LIMITS.choices} choices (limit choices)`);

/** The text a user_input starts with. */
export const AskDefaultValue = z
  .string()
  .max(
    ASK_LIMITS.defaultValueChars,
    tooLong('a defaultValue', ASK_LIMITS.defaultValueChars, 'defaultValueChars', 'start the human with less'),
  );

/**
 * The question: what an agent (or the page command gate) asks the human. Written here once: the card (AskView),
 * the journal's `ask_opened` line (AskOpened), the record (AskRecord) and the spec Asks keeps (AskSpec) are all
 * derived from it, and made from it by `pickOf`, so a field added here reaches every one of them.
 */
export const AskQuestion = z.object({
  kind: AskKind,
  agentId: AgentId,
  pageId: PageId.optional(),
  pageUrl: z.string().optional(),
  prompt: z.string(),
  choices: z.array(z.string()).optional(),
  multiple: z.boolean().optional(),
  defaultValue: z.string().optional(),
  /** for page_command asks: the command and its arguments */
  command: z.object({ cmd: z.string(), args: JsonValue }).optional(),
  /** the bridge's own prompt (a page command's question) as a code the window says in its language */
  promptSaid: Said.optional(),
});
export type AskQuestion = z.infer<typeof AskQuestion>;

/** What Asks is given to open an ask: the question, how long it may stay open and whether the agent waits. */
export const AskSpec = AskQuestion.extend({
  /** default DEFAULT_ASK_TIMEOUT_MS, capped at MAX_ASK_TIMEOUT_MS */
  timeoutMs: z.number().optional(),
  /** the agent asked with async: true (kept in the ask's record) */
  async: z.boolean().optional(),
});
export type AskSpec = z.infer<typeof AskSpec>;

/** An ask's id and its question: where every view of an ask starts. */
const AskedQuestion = z.object({ askId: AskId, ...AskQuestion.shape });

/**
 * The fields of `source` that `schema` names, in the schema's order, those undefined left out: how every view of
 * an ask is made from the question and what the view adds, with no field copied by hand. The values are not
 * parsed again: `source` is typed as the schema's input, and these schemas do not transform.
 */
export function pickOf<T extends z.ZodObject, S extends z.input<T>>(schema: T, source: S): z.output<T> {
  const picked: Record<string, unknown> = {};
  const from: Record<string, unknown> = source;
  for (const key of Object.keys(schema.shape)) if (from[key] !== undefined) picked[key] = from[key];
  return picked as z.output<T>;
}

/** The `ask` event on the role=ai stream, and one entry of `state.asks`. */
export const AskView = AskedQuestion.extend({
  /** the agent asked with async: true — it is not waiting on the answer; it will read it in its inbox */
  async: z.boolean().optional(),
  createdAt: IsoTime,
  deadline: IsoTime,
  remainingMs: z.number().int().nonnegative(),
  paused: z.boolean(),
});
export type AskView = z.infer<typeof AskView>;

/**
 * Who or what ended an ask: the human (in a window, or on the page for a pick), the agent (it withdrew the
 * question: the call was cancelled or its client left), or the bridge (time-out, away, the bridge stopping).
 */
export const AskDecidedBy = z.enum(['human', 'agent', 'bridge']);
export type AskDecidedBy = z.infer<typeof AskDecidedBy>;

/** How an ask ended and what came with it: the part the agent's outcome, the window's end and the record share. */
export const AskResult = z.object({
  status: AskStatus,
  value: JsonValue.optional(),
  note: z.string().optional(),
  reason: RejectReason.optional(),
  text: z.string().optional(),
  /** images the human pasted into the answer, kept in the data dir; the tool result carries them as image content */
  images: z.array(ImageRef).optional(),
});
export type AskResult = z.infer<typeof AskResult>;

/** How an ask ended, as the window shows it: the outcome without the agent's hint, and who decided. */
export const AskEnd = AskResult.extend({
  decidedBy: AskDecidedBy,
  /** the bridge's `text`, as a code the window says in its language */
  textSaid: Said.optional(),
  /** which window the human decided in (the desk, or which paired device) */
  decidedOn: DecidedOn.optional(),
});
export type AskEnd = z.infer<typeof AskEnd>;

/**
 * An ask as the journal keeps it when it opens (an `ask_opened` line in the asking agent's journal): enough to show
 * its card again after a restart and to know how long it had. Its end is its record (AskRecord).
 */
export const AskOpened = AskedQuestion.extend({
  createdAt: IsoTime,
  /** the whole countdown it was given */
  timeoutMs: z.number().int().positive(),
  /** asked with async: true (the outcome goes to the agent's inbox) */
  async: z.boolean(),
});
export type AskOpened = z.infer<typeof AskOpened>;

/** How an ask's countdown stood when the human paused or resumed it (the `ask_countdown` line). */
export const AskCountdown = z.object({
  askId: AskId,
  paused: z.boolean(),
  remainingMs: z.number().int().nonnegative(),
  at: IsoTime,
});
export type AskCountdown = z.infer<typeof AskCountdown>;

/** `ask_update`: the countdown moved (pause/resume) or the ask ended (then `outcome` says how and who decided). */
export const AskUpdate = z.object({
  askId: AskId,
  deadline: IsoTime,
  remainingMs: z.number().int().nonnegative(),
  paused: z.boolean(),
  status: z.union([z.literal('open'), AskStatus]),
  outcome: AskEnd.optional(),
});
export type AskUpdate = z.infer<typeof AskUpdate>;

/** POST /bridge/answer */
export const AnswerBody = z.object({
  askId: AskId,
  action: z.enum(['answer', 'reject', 'pause', 'resume']),
  value: z.union([z.boolean(), z.string(), z.array(z.string())]).optional(),
  reason: RejectReason.optional(),
  note: z.string().max(10_000).optional(),
  /** for page_command asks: remember the approval for this page */
  remember: z.boolean().optional(),
  /** images pasted or dropped into the answer (action answer only); the agent gets them as MCP image content */
  images: ImageUploads.optional(),
});
export type AnswerBody = z.infer<typeof AnswerBody>;

/** The outcome an agent receives, in structuredContent and as JSON text. */
export const AskOutcome = z.object({ askId: AskId, ...AskResult.shape, hint: z.string() });
export type AskOutcome = z.infer<typeof AskOutcome>;

/** Async ask answer: returned at once by user_* tools with async:true. */
export const AsyncAskAnswer = z.object({ askId: AskId, status: z.literal('open') });

/**
 * The record of one ask, kept in the journal and shown in History (the `payload` of an inbox message of kind
 * `ask`): what was asked, how it ended and who decided. Every ask gets one, sync, async, or answered `away` at
 * once without a card. Its first fields keep the order records were always written in (the prompt after the
 * agent), so a record's line reads as it did.
 */
export const AskRecord = AskedQuestion.pick({ askId: true, kind: true, agentId: true, prompt: true })
  .extend(AskedQuestion.shape)
  .extend({
    /** the agent asked with async: true */
    async: z.boolean(),
    createdAt: IsoTime,
    endedAt: IsoTime,
    /** false when the ask ended without ever showing a card (the human was away) */
    shown: z.boolean(),
    ...AskEnd.shape,
  });
export type AskRecord = z.infer<typeof AskRecord>;
