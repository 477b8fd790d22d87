import { normalize } from '../dom/visible.js';

/** What a field shows, or should show: its text, its checked state, or the values it holds. */
export type Shown = string | boolean | string[];

/** Text as a person compares it: without case, runs of spaces, or a trailing colon or required-star. */
export const clean = (text: string) =>
  normalize(text)
    .replace(/[\s:*]+$/, '')
    .toLowerCase();

/** Whether what the field shows is what was set (text compared without case and spacing). */
export function kept(expected: Shown, shows: Shown): boolean {
  if (typeof expected === 'boolean') return shows === expected;
  const norm = (v: Shown) =>
    Array.isArray(v)
      ? v
          .map((x) => clean(x))
          .sort()
          .join('|')
      : clean(String(v));
  if (Array.isArray(expected) && !Array.isArray(shows))
    return expected.every((x) => clean(String(shows)).includes(clean(x)));
  return norm(expected) === norm(shows);
}
