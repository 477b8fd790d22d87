import type { AskCountdown, AskOpened, JournalLine, Message, MessageStatus } from '../protocol/index.js';
import type { LineHead, StatusHead } from './scan.js';

/**
 * The journal has two owners, each fed only its own lines: the inbox writes and replays message lines (`message`,
 * `status_change`, `renamed`), the asks write and replay ask lines (`ask_opened`, `ask_countdown`, `ask_handed_over`) through a
 * narrow port. Neither goes through the other.
 */

/** What the replay hands the inbox, line by line, in file order. */
export interface MessageLines {
  /** a message line in the bridge's own form; `file` is the index JournalBodies.readMessage takes */
  head(head: LineHead, file: number): void;
  /** a message line read whole through the schema (another form, e.g. an older bridge's) */
  message(message: Message): void;
  /** a status_change line in the bridge's own form */
  statusHead(change: StatusHead): void;
  /** a status_change line read whole through the schema */
  statusChange(id: string, status: MessageStatus, at: string): void;
  renamed(from: string, to: string, at: string): void;
}

/** What the replay hands the asks: their own lines, and the renames that move an open ask to another agent id. */
export interface AskLines {
  /** an ask opened (asks are journaled when they open; their end is their record, a message) */
  opened(ask: AskOpened): void;
  /** an ask was paused or resumed */
  countdown(countdown: AskCountdown): void;
  /** a sync ask's asker stopped waiting: from then on it is kept as an async ask */
  handedOver(askId: string): void;
  renamed(from: string, to: string, at: string): void;
}

/** The lines the asks write. */
export type AskLine = Extract<JournalLine, { type: 'ask_opened' | 'ask_countdown' | 'ask_handed_over' }>;

/** The asks' narrow port on the journal: they append their own lines to the asking agent's file, and nothing else. */
export interface AskJournal {
  /** resolves once the line is on disk; rejects (Unavailable) when it cannot be */
  append(agentId: string, line: AskLine): Promise<void>;
}
