import type { AskEnd, AskKind } from '../protocol/index.js';

/** How History names each kind of ask in one line. */
export const KIND_WORD: Record<AskKind, string> = {
  user_confirm: 'confirm',
  user_choose: 'choose',
  user_input: 'input',
  user_presence: 'presence',
  user_pick_element: 'pick element',
  page_command: 'page command',
};

/** How an ask ended, in words that say who decided: the human's answer, or what the bridge or agent did. */
export function endedLine(end: AskEnd): string {
  const extra = [end.note && `note: ${end.note}`, end.decidedBy !== 'human' ? undefined : end.text]
    .filter(Boolean)
    .join('; ');
  const tail = extra ? ` (${extra})` : '';
  switch (end.status) {
    case 'answered':
      return `the human answered ${JSON.stringify(end.value ?? null)}${tail}`;
    case 'rejected':
      return `the human rejected it${end.reason ? ` (${end.reason})` : ''}${end.text ? `: ${end.text}` : ''}`;
    case 'timed_out':
      return `timed out, decided by the bridge${end.text ? ` (${end.text})` : ''}`;
    case 'away':
      return end.decidedBy === 'human'
        ? `the human answered away${tail}`
        : `answered away by the bridge${end.text ? ` (${end.text})` : ''}`;
    case 'cancelled':
      return end.decidedBy === 'agent'
        ? `withdrawn by the agent${end.text ? ` (${end.text})` : ''}`
        : `cancelled by the bridge${end.text ? ` (${end.text})` : ''}`;
  }
}
