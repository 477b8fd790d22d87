import type { AnswerBody, AskKind, Json } from '../protocol/index.js';
import { Invalid } from '../errors.js';

/** What an answer is checked against: the kind of the ask and what it offered. */
export interface AnswerRules {
  kind: AskKind;
  choices?: string[];
  multiple?: boolean;
  defaultValue?: string;
}

const PRESENCE = ['present', 'away'];

/**
 * The value of an `answer` action, checked against the ask's kind (README "Asking the human"): a boolean for confirmations, one
 * offered label (or several when `multiple`) for choices, a string for input, "present"|"away" for presence.
 * Throws a 400 that says what was expected.
 */
export function answerValue(rules: AnswerRules, value: AnswerBody['value']): Json {
  const got = value === undefined ? 'nothing' : JSON.stringify(value);
  switch (rules.kind) {
    case 'user_confirm':
    case 'page_command':
      if (typeof value !== 'boolean') throw bad(`a ${rules.kind} answer is true (yes) or false (no); got ${got}`);
      return value;
    case 'user_choose':
      return chosen(rules, value, got);
    case 'user_input':
      if (value === undefined && rules.defaultValue !== undefined) return rules.defaultValue;
      if (typeof value !== 'string') throw bad(`a user_input answer is a string; got ${got}`);
      return value;
    case 'user_presence':
      if (typeof value !== 'string' || !PRESENCE.includes(value))
        throw bad(`a user_presence answer is "present" or "away"; got ${got}`);
      return value;
    case 'user_pick_element':
      throw bad('an element is picked on the page itself; from the window, reject, pause or resume this ask');
  }
}

function chosen(rules: AnswerRules, value: AnswerBody['value'], got: string): Json {
  const offered = rules.choices ?? [];
  const list = offered.map((c) => JSON.stringify(c)).join(', ');
  const picks = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
  if (!picks || picks.length === 0)
    throw bad(
      `a user_choose answer is ${rules.multiple ? 'one or more' : 'one'} of the choices offered: ${list}; got ${got}`,
    );
  const unknown = picks.filter((p) => !offered.includes(p));
  if (unknown.length > 0)
    throw bad(
      `${unknown.map((u) => JSON.stringify(u)).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not among the choices offered: ${list}`,
    );
  if (!rules.multiple) {
    if (picks.length > 1) throw bad(`this question takes one choice, not ${picks.length}; offered: ${list}`);
    return picks[0] ?? null;
  }
  return [...new Set(picks)];
}

function bad(message: string): Invalid {
  return new Invalid(message, 'value');
}
