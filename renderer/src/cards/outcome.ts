import type { AskEnd, AskKind, Json } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';
import type { Ended } from '../store.js';
import { endText } from './said.js';

export type Tone = 'ok' | 'muted' | 'warn' | 'danger';

/** An answer's value in words: Yes/No for a confirm, Allowed/Denied for a page command. */
export function valueText(kind: AskKind, value: Json | undefined): string {
  const words = t().ended;
  if (value === undefined) return '';
  if (kind === 'user_confirm' && typeof value === 'boolean') return value ? words.yes : words.no;
  if (kind === 'page_command' && typeof value === 'boolean') return value ? words.allowedValue : words.deniedValue;
  if (kind === 'user_presence' && value === 'present') return words.present;
  if (kind === 'user_presence' && value === 'away') return words.awayValue;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (value && typeof value === 'object') {
    const name = value.name ?? value.selector ?? value.ref;
    if (typeof name === 'string') return name;
  }
  return JSON.stringify(value);
}

/** A reply an auto-answer will give, in words (Yes, I'm here …, or the text). */
export const replyText = (kind: AskKind, value: Json): string => valueText(kind, value);

/** Where the human decided: at the desk, or on which paired device; '' when the ending does not say. */
export function placeText(end: Pick<AskEnd, 'decidedOn'> | undefined): string {
  const words = t().ended;
  if (!end?.decidedOn) return '';
  if (end.decidedOn.window === 'desk') return words.atDesk;
  return end.decidedOn.device ? words.onDevice(end.decidedOn.device) : '';
}

/**
 * How a card ended, in words that say who decided: "Answered" (here), "Answered in another window",
 * "Timed out", "Withdrawn by the agent", "Answered away" (by the bridge, while the human was away) …
 */
export function outcomeLabel(kind: AskKind, ended: Pick<Ended, 'outcome' | 'here'>): { label: string; tone: Tone } {
  const words = t().ended;
  const end: AskEnd | undefined = ended.outcome;
  // no word from the bridge and no record in History: the ask is gone (a bridge killed mid-ask keeps none)
  if (!end) return { label: words.gone, tone: 'warn' };
  const elsewhere = !ended.here && end.decidedBy === 'human';
  switch (end.status) {
    case 'answered':
      if (kind === 'user_pick_element') return { label: words.picked, tone: 'ok' };
      // a page command's answer is the decision itself: a Deny is no green "Answered"
      if (kind === 'page_command' && end.value === false)
        return { label: elsewhere ? words.deniedElsewhere : words.denied, tone: 'danger' };
      if (kind === 'page_command') return { label: elsewhere ? words.allowedElsewhere : words.allowed, tone: 'ok' };
      return { label: elsewhere ? words.answeredElsewhere : words.answered, tone: 'ok' };
    case 'rejected':
      if (kind === 'user_pick_element') return { label: words.closedOnPage, tone: 'muted' };
      return { label: elsewhere ? words.rejectedElsewhere : words.rejected, tone: 'danger' };
    case 'timed_out':
      return { label: words.timedOut, tone: 'warn' };
    case 'away':
      if (end.decidedBy === 'human') return { label: elsewhere ? words.awayElsewhere : words.awayHere, tone: 'muted' };
      return { label: words.awayBridge, tone: 'muted' };
    case 'cancelled':
      return end.decidedBy === 'agent'
        ? { label: words.withdrawn, tone: 'muted' }
        : { label: words.cancelled, tone: 'warn' };
  }
}

/** Who decided, for the line under the outcome. */
export function decidedByText(end: AskEnd | undefined, here: boolean): string {
  const words = t().ended;
  if (!end) return '';
  if (end.decidedBy === 'human') {
    if (here) return words.byYouHere;
    const place = placeText(end);
    return place ? `${words.byYou} ${place}` : words.byYou;
  }
  return end.decidedBy === 'agent' ? words.byAgent : words.byBridge;
}

/** The details under an outcome: the value, the reason (in words), note, text, and who decided. */
export function outcomeDetails(kind: AskKind, end: AskEnd | undefined, here: boolean): string[] {
  const words = t();
  const value = end?.status === 'answered' || end?.status === 'away' ? valueText(kind, end.value) : '';
  return [
    value && `“${value}”`,
    end?.reason && words.ended.reason(words.reject.presets[end.reason]),
    end?.note && words.ended.note(end.note),
    end && endText(end),
    decidedByText(end, here),
  ].filter((part): part is string => Boolean(part));
}
