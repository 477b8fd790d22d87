import type { AskOutcome, AskUpdate } from '../protocol/index.js';
import type { Asker } from './asker.js';
import type { Ask, Asks } from './asks.js';

/** Clients drop a silent call after a while (Claude Code: 300 s); a progress note this often keeps it. */
export const PROGRESS_EVERY_MS = 5_000;

/** The asker stopped waiting before the ask ended: its outcome goes to the inbox (Asks.handOver). */
export interface HandedOver {
  handedOver: true;
  askId: string;
  /** the human's time left on the countdown, and whether it is paused, when the asker stopped waiting */
  remainingMs: number;
  paused: boolean;
}

/**
 * When the asker stops waiting, given how long its client waits for a call: a margin before that (10 %, at least
 * 3 s), so the answer saying the ask is still open arrives while the client still listens.
 */
export function handOverAfterMs(patienceMs: number): number {
  return Math.max(1000, patienceMs - Math.max(3000, patienceMs * 0.1));
}

/**
 * Holds the asker (a tool call) until the human ends the ask. Sends notifications/progress at once, every few seconds and
 * whenever the human pauses or resumes, with the remaining time in the message. A call that is cancelled (or
 * whose client goes away) withdraws the ask. An asker whose client stops waiting after `patienceMs` is let go
 * just before that, the ask handed to the inbox (HandedOver): no client cuts a call that asked the human.
 */
export function waitForHuman(
  asks: Asks,
  asker: Asker,
  ask: Ask,
  everyMs = PROGRESS_EVERY_MS,
): Promise<AskOutcome | HandedOver> {
  return waitOrLetGo(asks, asker, ask, everyMs, 'hand over');
}

/**
 * The same, for a question whose answer is worth nothing once its asker stopped waiting (the page gate's: the
 * command runs in the call or not at all): the ask is withdrawn then, saying why.
 */
export async function waitForHumanOrWithdraw(asks: Asks, asker: Asker, ask: Ask): Promise<AskOutcome> {
  const outcome = await waitOrLetGo(asks, asker, ask, PROGRESS_EVERY_MS, 'withdraw');
  // Stryker disable next-line all: unreachable, a withdrawing wait never hands over
  if ('handedOver' in outcome) throw new Error('a withdrawn ask was handed over');
  return outcome;
}

async function waitOrLetGo(
  asks: Asks,
  asker: Asker,
  ask: Ask,
  everyMs: number,
  impatient: 'hand over' | 'withdraw',
): Promise<AskOutcome | HandedOver> {
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
  let letGo: NodeJS.Timeout | undefined;
  const patienceMs = asker.patienceMs;
  const patience =
    patienceMs === undefined
      ? undefined
      : new Promise<HandedOver | undefined>((resolve) => {
          letGo = setTimeout(() => {
            if (impatient === 'withdraw') {
              void asks.cancel(
                ask.askId,
                `the agent's client stops waiting for a call after ${Math.round(patienceMs / 1000)} s`,
                'agent',
                { code: 'client_stopped_waiting', values: { seconds: Math.round(patienceMs / 1000) } },
              );
              return resolve(undefined);
            }
            // false: the ask was ending as the asker was let go, and its outcome is on its way
            void asks.handOver(ask.askId).then((handed) =>
              resolve(
                handed
                  ? {
                      handedOver: true,
                      askId: ask.askId,
                      remainingMs: Math.round(ask.countdown.remainingMs()),
                      paused: ask.countdown.paused,
                    }
                  : undefined,
              ),
            );
          }, handOverAfterMs(patienceMs));
          letGo.unref();
        });
  report();
  try {
    const first = await Promise.race([ask.outcome, ...(patience ? [patience] : [])]);
    return first ?? (await ask.outcome);
    // Stryker disable next-line BlockStatement: equivalent, an ended ask's timer and update send nothing, a late abort cancels nothing
  } finally {
    clearInterval(timer);
    clearTimeout(letGo);
    unwatch();
    // Stryker disable next-line StringLiteral: equivalent, as above
    asker.signal.removeEventListener('abort', onAbort);
  }
}
