import type { AskOutcome, AskUpdate } from '../protocol/index.js';
import type { Asker } from './asker.js';
import type { Ask, Asks } from './asks.js';

/** Clients drop a silent call after a while (Claude Code: 300 s); a progress note this often keeps it. */
export const PROGRESS_EVERY_MS = 5_000;

/**
 * Holds the asker (a tool call) until the human ends the ask. Sends notifications/progress at once, every few seconds and
 * whenever the human pauses or resumes, with the remaining time in the message. A call that is cancelled (or
 * whose client goes away) withdraws the ask.
 */
export async function waitForHuman(
  asks: Asks,
  asker: Asker,
  ask: Ask,
  everyMs = PROGRESS_EVERY_MS,
): Promise<AskOutcome> {
  let tick = 0;
  const report = (update?: AskUpdate) => {
    if (ask.ended) return;
    const remaining = update?.remainingMs ?? ask.countdown.remainingMs();
    const paused = update?.paused ?? ask.countdown.paused;
    const seconds = Math.ceil(remaining / 1000);
    const message = paused
      ? `${ask.askId}: paused by the human with ${seconds} s left; the countdown resumes when they resume`
      : `${ask.askId}: waiting for the human to answer, ${seconds} s left`;
    asker.progress(message, ++tick).catch(() => undefined);
  };
  const onAbort = () =>
    asks.cancel(ask.askId, 'the tool call was cancelled or the client disconnected', 'agent', {
      code: 'call_cancelled',
    });
  if (asker.signal.aborted) onAbort();
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent, a signal aborts once
  asker.signal.addEventListener('abort', onAbort, { once: true });
  const unwatch = asks.watch(ask, report);
  const timer = setInterval(report, everyMs);
  timer.unref();
  report();
  try {
    return await ask.outcome;
    // Stryker disable next-line BlockStatement: equivalent, an ended ask's timer and update send nothing, a late abort cancels nothing
  } finally {
    clearInterval(timer);
    unwatch();
    // Stryker disable next-line StringLiteral: equivalent, as above
    asker.signal.removeEventListener('abort', onAbort);
  }
}
