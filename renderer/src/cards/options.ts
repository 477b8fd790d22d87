import type { AnswerBody, AskView, RejectReason } from '../../../bridge/protocol/index.js';
import type { Draft } from '../drafts.js';
import { t } from '../i18n/index.js';

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
  const words = t().cards;
  switch (ask.kind) {
    case 'user_confirm':
      return [
        { key: 'yes', label: words.yes, answer: { value: true }, tone: 'primary' },
        { key: 'no', label: words.no, answer: { value: false } },
      ];
    case 'user_choose':
      return (ask.choices ?? []).map((choice) => ({ key: choice, label: choice, answer: { value: choice } }));
    case 'user_presence':
      return [
        { key: 'present', label: words.present, answer: { value: 'present' }, tone: 'primary' },
        { key: 'away', label: words.awayOption, answer: { value: 'away' } },
      ];
    case 'page_command':
      return [
        { key: 'once', label: words.allowOnce, answer: { value: true }, tone: 'primary' },
        { key: 'page', label: words.allowPage, answer: { value: true, remember: true } },
        { key: 'deny', label: words.deny, answer: { value: false }, tone: 'danger' },
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
  if (ask.kind === 'user_pick_element') return t().problems.pickElement;
  if (ask.kind === 'user_choose' && ask.multiple) {
    const order = ask.choices ?? [];
    const value = order.filter((c) => draft.picked.includes(c));
    if (!value.length) return t().problems.pickOne;
    return { ...base, value };
  }
  const option = optionsOf(ask).find((o) => o.key === draft.picked[0]);
  if (!option) return t().problems.pickFirst;
  return { ...base, ...option.answer };
}

/** The preset reasons, in the order number keys pick them (their words come from the language in use). */
export const REJECT_PRESETS: ReadonlyArray<Exclude<RejectReason, 'other'>> = [
  'not_now',
  'wrong_approach',
  'need_info',
  'stop_task',
];

/** The reject the card sends: a preset (with the text as a note), or the text alone as reason `other`. */
export function rejectOf(ask: AskView, draft: Draft): AnswerBody | string {
  const text = draft.reasonText.trim();
  if (draft.reason && draft.reason !== 'other')
    return { askId: ask.askId, action: 'reject', reason: draft.reason, ...(text ? { note: text } : {}) };
  if (!text) return t().problems.rejectReason;
  return { askId: ask.askId, action: 'reject', reason: 'other', note: text };
}

/** What a kind of ask is called on its card. */
export const kindLabel = (kind: AskView['kind']): string => t().kind[kind];
