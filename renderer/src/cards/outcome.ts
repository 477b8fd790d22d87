import type { AskEnd, AskKind, Json } from '../../../bridge/protocol/index.js';
import type { Ended } from '../store.js';

export type Tone = 'ok' | 'muted' | 'warn' | 'danger';

/** An answer's value in words: Yes/No for a confirm, Allowed/Denied for a page command. */
export function valueText(kind: AskKind, value: Json | undefined): string {
  if (value === undefined) return '';
  if (kind === 'user_confirm' && typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (kind === 'page_command' && typeof value === 'boolean') return value ? 'Allowed' : 'Denied';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ');
  if (value && typeof value === 'object') {
    const name = value.name ?? value.selector ?? value.ref;
    if (typeof name === 'string') return name;
  }
  return JSON.stringify(value);
}

/**
 * How a card ended, in words that say who decided: "Answered" (here), "Answered in another window",
 * "Timed out", "Withdrawn by the agent", "Answered away" (by the bridge, while the human was away) …
 */
export function outcomeLabel(kind: AskKind, ended: Pick<Ended, 'outcome' | 'here'>): { label: string; tone: Tone } {
  const end: AskEnd | undefined = ended.outcome;
  // no word from the bridge and no record in History: the ask is gone (a bridge killed mid-ask keeps none)
  if (!end) return { label: 'No longer open on the bridge', tone: 'warn' };
  const elsewhere = !ended.here && end.decidedBy === 'human';
  switch (end.status) {
    case 'answered':
      if (kind === 'user_pick_element') return { label: 'Picked on the page', tone: 'ok' };
      // a page command's answer is the decision itself: a Deny is no green "Answered"
      if (kind === 'page_command' && end.value === false)
        return { label: elsewhere ? 'Denied in another window' : 'Denied', tone: 'danger' };
      if (kind === 'page_command') return { label: elsewhere ? 'Allowed in another window' : 'Allowed', tone: 'ok' };
      return { label: elsewhere ? 'Answered in another window' : 'Answered', tone: 'ok' };
    case 'rejected':
      if (kind === 'user_pick_element') return { label: 'Closed on the page', tone: 'muted' };
      return { label: elsewhere ? 'Rejected in another window' : 'Rejected', tone: 'danger' };
    case 'timed_out':
      return { label: 'Timed out', tone: 'warn' };
    case 'away':
      if (end.decidedBy === 'human')
        return { label: elsewhere ? 'Answered away in another window' : 'Away', tone: 'muted' };
      return { label: 'Answered away', tone: 'muted' };
    case 'cancelled':
      return end.decidedBy === 'agent'
        ? { label: 'Withdrawn by the agent', tone: 'muted' }
        : { label: 'Cancelled by the bridge', tone: 'warn' };
  }
}

/** Who decided, for the line under the outcome. */
export function decidedByText(end: AskEnd | undefined, here: boolean): string {
  if (!end) return '';
  if (end.decidedBy === 'human') return here ? 'by you, here' : 'by you';
  return end.decidedBy === 'agent' ? 'by the agent' : 'by the bridge';
}
