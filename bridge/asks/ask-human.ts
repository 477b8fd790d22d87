import type { AskOutcome, AskSpec } from '../protocol/index.js';
import type { AskAnswer, Asker } from './asker.js';
import type { Ask, Asks } from './asks.js';
import type { ImageStore } from '../images/store.js';
import { waitForHuman, type HandedOver } from './wait.js';

/** What an ask needs: the asks (which keep it on disk and put an async answer in the inbox) and the images pasted into answers. */
export interface AskServices {
  asks: Asks;
  images: Pick<ImageStore, 'readAll'>;
}

export interface AskMode {
  /** return {askId} at once; the outcome goes to the inbox as a user_answer message */
  async?: boolean;
  /** wait even when the human is marked away */
  wait?: boolean;
  /** starts the work that may end the ask besides the human's answer (the page's picker) */
  onOpen?: (ask: Ask) => void;
}

/**
 * The common path of the user_* tools: an away human answers `away` at once (unless the agent waits), an async
 * ask returns its id and later lands in the inbox, a sync ask holds the call (with progress) until it ends. Every
 * ask is on disk before the call hears of it (an ask id, or its outcome): one that cannot be written is a tool error.
 */
export async function askTheHuman(
  bridge: AskServices,
  asker: Asker,
  spec: Omit<AskSpec, 'agentId'>,
  mode: AskMode = {},
): Promise<AskAnswer> {
  const { asks } = bridge;
  const full: AskSpec = { ...spec, agentId: asker.agentId, ...(mode.async ? { async: true } : {}) };
  if (!mode.async && asks.away && !mode.wait) {
    return outcomeResult(
      await asks.immediate(full, 'away', {
        text: 'the human is marked away; the question was not shown',
        textSaid: { code: 'away_not_shown' },
      }),
    );
  }
  const ask = asks.create(full);
  await ask.opened;
  mode.onOpen?.(ask);
  if (mode.async) {
    return {
      structured: { askId: ask.askId, status: 'open' },
      summary: `asked the human (${ask.askId}); the outcome will arrive in aiti_inbox as a user_answer message`,
    };
  }
  const outcome = await waitForHuman(asks, asker, ask);
  return 'handedOver' in outcome ? stillOpen(outcome, asker.patienceMs ?? 0) : outcomeResult(outcome, bridge.images);
}

/**
 * What a sync ask answers when its asker's client is about to stop waiting: the question is still open on the
 * human's screen, and its outcome will arrive in the inbox (as an async ask's does), with the askId to match.
 */
function stillOpen(left: HandedOver, patienceMs: number): AskAnswer {
  const seconds = Math.round(patienceMs / 1000);
  const time = left.paused
    ? `the human paused its countdown with ${Math.ceil(left.remainingMs / 1000)} s left`
    : `${Math.ceil(left.remainingMs / 1000)} s left on its countdown`;
  return {
    structured: { askId: left.askId, status: 'open', inInbox: true },
    summary:
      `the human has not answered yet, and your MCP client stops waiting for a tool call after ${seconds} s: ` +
      `the question is still open on their screen (${left.askId}, ${time}). Its outcome will arrive in aiti_inbox ` +
      `as a user_answer message with askId ${left.askId}; do not ask again — carry on, and read aiti_inbox later.`,
  };
}

/**
 * The tool result of an ended ask: the outcome as structuredContent, with a one-line summary, and the images the
 * human pasted into the answer as image content.
 */
export async function outcomeResult(outcome: AskOutcome, images?: Pick<ImageStore, 'readAll'>): Promise<AskAnswer> {
  const content = (await images?.readAll(outcome.images)) ?? [];
  return { structured: outcome, summary: summarize(outcome), ...(content.length ? { images: content } : {}) };
}

export function summarize(outcome: AskOutcome): string {
  const pictures = outcome.images?.length
    ? `${outcome.images.length} image${outcome.images.length === 1 ? '' : 's'} attached`
    : '';
  const extra = [outcome.note && `note: ${outcome.note}`, outcome.text, pictures].filter(Boolean).join('; ');
  const tail = extra ? ` (${extra})` : '';
  switch (outcome.status) {
    case 'answered':
      return `the human answered ${JSON.stringify(outcome.value ?? null)}${tail}`;
    case 'rejected':
      return `the human rejected the question${outcome.reason ? `: ${outcome.reason}` : ''}${tail}`;
    case 'timed_out':
      return `the human did not answer in time${tail}`;
    case 'away':
      return `the human is away${tail}`;
    case 'cancelled':
      return `the question was withdrawn${tail}`;
  }
}
