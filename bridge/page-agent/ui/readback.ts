import { normalize } from '../dom/visible.js';
import { splitList } from './chips.js';
import { parseDay, sameDay } from './dates.js';

/** What a field shows, or should show: its text, its checked state, or the values it holds. */
export type Shown = string | boolean | string[];

/** How a field's value is compared: as text, as a number ("1,000" is 1000), or as the day it names. */
export type Compare = 'text' | 'number' | 'date';

/** Text as a person compares it: without case, runs of spaces, or a trailing colon or required-star. */
export const clean = (text: string) =>
  normalize(text)
    .replace(/(?<![\s:*])[\s:*]+$/, '')
    .toLowerCase();

const sorted = (values: string[]) => values.map(clean).sort().join('|');

function asNumber(text: string): number {
  return Number(text.replace(/[\s,_]/g, ''));
}

/**
 * Whether what the field shows is what was set: the same checked state, the same values (in any order, none
 * missing and none extra), the same number, the same day, or the same text without case and spacing.
 */
// Stryker disable next-line StringLiteral: equivalent, only 'date' and 'number' compare otherwise than text
export function kept(expected: Shown, shows: Shown, how: Compare = 'text'): boolean {
  if (typeof expected === 'boolean' || typeof shows === 'boolean') return shows === expected;
  if (how === 'date')
    return !Array.isArray(expected) && !Array.isArray(shows) && sameDay(parseDay(expected), parseDay(shows));
  if (how === 'number' && !Array.isArray(expected) && !Array.isArray(shows))
    return shows.trim() !== '' && asNumber(shows) === asNumber(expected);
  // only a native multi-select reads back as a list, and set-field's select() always wants a list for it
  // Stryker disable next-line ArrayDeclaration: unreachable, see above
  if (Array.isArray(shows)) return sorted(Array.isArray(expected) ? expected : [expected]) === sorted(shows);
  if (Array.isArray(expected))
    // a widget that shows its values as one text ("Cheese, Olives"): the same set, or the same list as written
    return sorted(expected) === sorted(splitList(shows)) || clean(expected.join(', ')) === clean(shows);
  return clean(expected) === clean(shows);
}
