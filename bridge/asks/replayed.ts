import type { AskCountdown, AskOpened } from '../protocol/index.js';
import type { AskLines } from '../journal/lines.js';

/** The id of an ask's record (its end, in History): made from the ask id, so a restart can tell it ended. */
export const recordIdOf = (askId: string): string => `${askId}.record`;
/** The id of the user_answer an ask's outcome leaves in the agent's inbox. */
export const answerIdOf = (askId: string): string => `${askId}.answer`;

/**
 * A sync ask that ended this long before the last line the bridge wrote before it stopped may not have reached its
 * call: the bridge can have died between writing its record and writing the call's answer.
 */
export const LATE_END_MS = 10_000;

/**
 * An ask the journal saw open, with no record of its end: the bridge stopped while it was open. Asks.restore shows
 * it again, with the time its last pause or resume left it.
 */
export interface OpenAsk {
  ask: AskOpened;
  countdown?: AskCountdown;
}

/** What a replay found of asks. */
export interface ReplayedAskSets {
  /** asks with no record of their end: open when the bridge stopped */
  open: OpenAsk[];
  /** async asks on record whose answer is not in the agent's inbox */
  unanswered: string[];
  /** sync asks that ended just before the bridge stopped, whose answer may not have reached the waiting call */
  late: string[];
}

/** What the sort needs of the inbox: when a message was written, and the newest one. */
export interface InboxTimes {
  timeOf(id: string): number | undefined;
  lastWritten(): number;
}

/**
 * The asks' reader of the journal's replay (journal/replay.ts hands it the ask lines, `ask_opened` and
 * `ask_countdown`, and the renames); once the replay is done, `sort` tells the asks still open (no record of their
 * end) from the async asks that ended but whose answer never reached the agent's inbox (the bridge stopped between
 * the two lines) and the sync asks that ended just before the stop.
 */
export class ReplayedAsks implements AskLines {
  private readonly seen = new Map<string, OpenAsk>();
  private readonly renames: Array<{ from: string; to: string; at: string }> = [];

  opened(ask: AskOpened): void {
    if (!this.seen.has(ask.askId)) this.seen.set(ask.askId, { ask });
  }

  /** its asker stopped waiting: it is an async ask from then on (shown again at a restart, its outcome inboxed) */
  handedOver(askId: string): void {
    const seen = this.seen.get(askId);
    if (seen) seen.ask = { ...seen.ask, async: true };
  }

  countdown(line: AskCountdown): void {
    const seen = this.seen.get(line.askId);
    if (seen && (!seen.countdown || seen.countdown.at <= line.at)) seen.countdown = line;
  }

  renamed(from: string, to: string, at: string): void {
    this.renames.push({ from, to, at });
  }

  /**
   * The asks without a record, each under the agent id it has now (an aiti_hello rename after it opened moved it),
   * and the ended async asks whose answer is missing.
   */
  sort(inbox: InboxTimes): ReplayedAskSets {
    const renames = [...this.renames].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
    const open: OpenAsk[] = [];
    const unanswered: string[] = [];
    const late: string[] = [];
    for (const entry of this.seen.values()) {
      const { askId } = entry.ask;
      const ended = inbox.timeOf(recordIdOf(askId));
      if (ended !== undefined) {
        if (inbox.timeOf(answerIdOf(askId)) !== undefined) continue;
        if (entry.ask.async) unanswered.push(askId);
        else if (ended >= inbox.lastWritten() - LATE_END_MS) late.push(askId);
        continue;
      }
      let agentId = entry.ask.agentId;
      for (const rename of renames)
        if (rename.from === agentId && rename.at >= entry.ask.createdAt) agentId = rename.to;
      open.push({ ...entry, ask: { ...entry.ask, agentId } });
    }
    return { open, unanswered, late };
  }
}
