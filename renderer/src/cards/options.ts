import type { AnswerBody, AskView, RejectReason } from '../../../bridge/protocol/index.js';
import type { Draft } from '../drafts.js';

/** One pickable option of a card: what it says, and what answering with it sends. */
export interface AskOption {
  key: string;
  label: string;
  /** the answer sent when this option alone is picked */
  answer: Omit<AnswerBody, 'askId' | 'action' | 'note'>;
  tone?: 'primary' | 'danger';
}

/** The options a card offers, in the order the number keys pick them. */
export function optionsOf(ask: AskView): AskOption[] {
  switch (ask.kind) {
    case 'user_confirm':
      return [
        { key: 'yes', label: 'Yes', answer: { value: true }, tone: 'primary' },
        { key: 'no', label: 'No', answer: { value: false } },
      ];
    case 'user_choose':
      return (ask.choices ?? []).map((choice) => ({ key: choice, label: choice, answer: { value: choice } }));
    case 'user_presence':
      return [
        { key: 'present', label: "I'm here", answer: { value: 'present' }, tone: 'primary' },
        { key: 'away', label: 'Away', answer: { value: 'away' } },
      ];
    case 'page_command':
      return [
        { key: 'once', label: 'Allow once', answer: { value: true }, tone: 'primary' },
        { key: 'page', label: 'Allow for this page', answer: { value: true, remember: true } },
        { key: 'deny', label: 'Deny', answer: { value: false }, tone: 'danger' },
      ];
    default:
      return [];
  }
}

/** Picking option `key`: toggles it for a multiple choice, replaces the pick otherwise. */
export function pick(ask: AskView, picked: readonly string[], key: string): string[] {
  if (ask.kind === 'user_choose' && ask.multiple)
    return picked.includes(key) ? picked.filter((k) => k !== key) : [...picked, key];
  return [key];
}

/** The answer the card sends now, or a sentence saying what is missing. */
export function answerOf(ask: AskView, draft: Draft): AnswerBody | string {
  const note = draft.note.trim() ? { note: draft.note.trim() } : {};
  const base = { askId: ask.askId, action: 'answer' as const, ...note };
  if (ask.kind === 'user_input') return { ...base, value: draft.text ?? ask.defaultValue ?? '' };
  if (ask.kind === 'user_pick_element') return 'pick the element in the page, or reject';
  if (ask.kind === 'user_choose' && ask.multiple) {
    const order = ask.choices ?? [];
    const value = order.filter((c) => draft.picked.includes(c));
    if (!value.length) return 'pick at least one (number keys toggle)';
    return { ...base, value };
  }
  const option = optionsOf(ask).find((o) => o.key === draft.picked[0]);
  if (!option) return 'pick an option first (number keys pick)';
  return { ...base, ...option.answer };
}

export const REJECT_PRESETS: ReadonlyArray<{ reason: Exclude<RejectReason, 'other'>; label: string }> = [
  { reason: 'not_now', label: 'Not now' },
  { reason: 'wrong_approach', label: 'Wrong approach' },
  { reason: 'need_info', label: 'Need more info' },
  { reason: 'stop_task', label: 'Stop the task' },
];

/** The reject the card sends: a preset (with the text as a note), or the text alone as reason `other`. */
export function rejectOf(ask: AskView, draft: Draft): AnswerBody | string {
  const text = draft.reasonText.trim();
  if (draft.reason && draft.reason !== 'other')
    return { askId: ask.askId, action: 'reject', reason: draft.reason, ...(text ? { note: text } : {}) };
  if (!text) return 'pick a reason or write one';
  return { askId: ask.askId, action: 'reject', reason: 'other', note: text };
}

export const KIND_LABEL: Record<AskView['kind'], string> = {
  user_confirm: 'Confirm',
  user_choose: 'Choose',
  user_input: 'Input',
  user_presence: 'Presence',
  user_pick_element: 'Pick element',
  page_command: 'Page command',
};
