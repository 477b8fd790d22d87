import type { AskCountdown, AskOpened, AskOutcome, AskRecord } from '../protocol/index.js';

/**
 * Where asks are kept on disk (asks/record.ts: the asking agent's journal). Every step resolves once it is on disk,
 * and Asks changes nothing anyone can see before that: a card is shown after its ask is written, an answer is
 * acknowledged and given to the agent after its record is.
 */
export interface AskLedger {
  /** the ask opened: written before its card shows or its id is returned to the agent */
  opened(ask: AskOpened): Promise<void>;
  /** the human paused or resumed it */
  countdown(agentId: string, change: AskCountdown): Promise<void>;
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
