import type { AskEnd, AskView, Said } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';

/** The bridge's words, in the human's language: its code said with its values. */
export function saidText(said: Said): string {
  return t().said[said.code](said.values ?? {});
}

/** What a card asks, as the human reads it: the agent's prompt, or the bridge's own question in their language. */
export function promptOf(ask: Pick<AskView, 'prompt' | 'promptSaid'>): string {
  return ask.promptSaid ? saidText(ask.promptSaid) : ask.prompt;
}

/** An ending's text: the bridge's words translated, else the text as given (a reason the human or agent wrote). */
export function endText(end: Pick<AskEnd, 'text' | 'textSaid'>): string | undefined {
  return end.textSaid ? saidText(end.textSaid) : end.text;
}
