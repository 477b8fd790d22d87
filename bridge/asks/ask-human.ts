import type { AskOutcome } from '../protocol/index.js';
import type { AskAnswer, Asker } from './asker.js';
import type { Ask, Asks, AskSpec } from './asks.js';
import type { ImageStore } from '../images/store.js';
import { waitForHuman } from './wait.js';

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
      await asks.immediate(full, 'away', { text: 'the human is marked away; the question was not shown' }),
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
  return outcomeResult(await waitForHuman(asks, asker, ask), bridge.images);
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
