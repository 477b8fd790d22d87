import type { AskEnd, AskOpened, AskOutcome, AskRecord } from '../protocol/index.js';
import type { AskSpec } from './asks.js';

/** How an ask's countdown stands when the human pauses or resumes it. */
export interface CountdownChange {
  askId: string;
  paused: boolean;
  remainingMs: number;
  /** ISO wall time */
  at: string;
}

/**
 * Where asks are kept on disk (asks/record.ts: the asking agent's journal). Every step resolves once it is on disk,
 * and Asks changes nothing anyone can see before that: a card is shown after its ask is written, an answer is
 * acknowledged and given to the agent after its record is.
 */
export interface AskLedger {
  /** the ask opened: written before its card shows or its id is returned to the agent */
  opened(ask: AskOpened): Promise<void>;
  /** the human paused or resumed it */
  countdown(agentId: string, change: CountdownChange): Promise<void>;
  /** its asker stopped waiting (a sync ask): its outcome goes to the inbox from now on, through restarts */
  handedOver(agentId: string, askId: string, at: string): Promise<void>;
  /**
   * It ended: its record for History and, when `toInbox` (an async ask, or one the agent's call can no longer
   * receive), the outcome as a user_answer in the agent's inbox.
   */
  ended(record: AskRecord, outcome: AskOutcome, toInbox: boolean): Promise<void>;
}

/** Keeps nothing: for an Asks used without a journal (unit tests of the countdown and the waiting). */
export const memoryLedger: AskLedger = {
  opened: () => Promise.resolve(),
  countdown: () => Promise.resolve(),
  handedOver: () => Promise.resolve(),
  ended: () => Promise.resolve(),
};

/** What the human is shown of an ask: its card (AskView) and its `ask_opened` line alike. */
export function shownOf(spec: AskSpec) {
  return {
    kind: spec.kind,
    agentId: spec.agentId,
    ...(spec.pageId ? { pageId: spec.pageId } : {}),
    ...(spec.pageUrl ? { pageUrl: spec.pageUrl } : {}),
    prompt: spec.prompt,
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.multiple !== undefined ? { multiple: spec.multiple } : {}),
    ...(spec.defaultValue !== undefined ? { defaultValue: spec.defaultValue } : {}),
    ...(spec.command ? { command: spec.command } : {}),
    ...(spec.promptSaid ? { promptSaid: spec.promptSaid } : {}),
  };
}

/** The journal's line for an ask that opens: what a restart needs to show it again. */
export function openedOf(askId: string, spec: AskSpec, createdAt: number, timeoutMs: number): AskOpened {
  return {
    askId,
    ...shownOf(spec),
    createdAt: new Date(createdAt).toISOString(),
    timeoutMs,
    async: spec.async ?? false,
  };
}

/** The spec of an ask read back from its `ask_opened` line. */
export function specOf(opened: AskOpened): AskSpec {
  return {
    kind: opened.kind,
    agentId: opened.agentId,
    prompt: opened.prompt,
    ...(opened.pageId ? { pageId: opened.pageId } : {}),
    ...(opened.pageUrl ? { pageUrl: opened.pageUrl } : {}),
    ...(opened.choices ? { choices: opened.choices } : {}),
    ...(opened.multiple !== undefined ? { multiple: opened.multiple } : {}),
    ...(opened.defaultValue !== undefined ? { defaultValue: opened.defaultValue } : {}),
    ...(opened.command ? { command: opened.command } : {}),
    ...(opened.promptSaid ? { promptSaid: opened.promptSaid } : {}),
    timeoutMs: opened.timeoutMs,
    ...(opened.async ? { async: true } : {}),
  };
}

/** The record of an ended ask (History, the journal): what was asked, how it ended, who decided. */
export function recordOf(
  askId: string,
  spec: AskSpec,
  times: { createdAt: string; endedAt: string; shown: boolean },
  end: AskEnd,
): AskRecord {
  return {
    askId,
    kind: spec.kind,
    agentId: spec.agentId,
    prompt: spec.prompt,
    ...(spec.pageId ? { pageId: spec.pageId } : {}),
    ...(spec.pageUrl ? { pageUrl: spec.pageUrl } : {}),
    ...(spec.choices ? { choices: spec.choices } : {}),
    ...(spec.multiple !== undefined ? { multiple: spec.multiple } : {}),
    ...(spec.command ? { command: spec.command } : {}),
    ...(spec.promptSaid ? { promptSaid: spec.promptSaid } : {}),
    async: spec.async ?? false,
    ...times,
    ...end,
  };
}
