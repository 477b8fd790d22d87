/**
 * Dates as people write them and as date pickers show them: "2027-03-15", "March 15, 2027", "15 March 2027",
 * "Monday, March 15th, 2027", "03/15/2027" (day and month in the page's own order). A field's value is compared
 * by the day it names, not by its text, so "2027-03-15" is kept when the picker shows "March 15th, 2027".
 */
export interface Day {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

const ENGLISH = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** The page's language (the html lang, else the browser's), for month names and the order of numeric dates. */
export function pageLocale(): string {
  const lang = document.documentElement.lang || navigator.language || 'en-US';
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([lang])[0] ?? 'en-US';
  } catch {
    return 'en-US';
  }
}

/** Month names, long and short, in English and in the page's language: index 0 is January. */
function monthNames(locale: string): string[][] {
  const names = ENGLISH.map((name) => [name, name.slice(0, 3)]);
  for (const style of ['long', 'short'] as const) {
    const format = new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' });
    for (let m = 0; m < 12; m++) {
      const name = format
        .format(Date.UTC(2000, m, 15))
        .toLowerCase()
        .replace(/\.$/, '');
      if (!names[m]?.includes(name)) names[m]?.push(name);
    }
  }
  return names;
}

/** Which of day and month comes first in the page's numeric dates ("03/15/2027" in en-US, "15/03/2027" in en-GB). */
function dayFirst(locale: string): boolean {
  const parts = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'numeric', year: 'numeric' }).formatToParts(
    Date.UTC(2000, 10, 22),
  );
  const order = parts.filter((p) => p.type === 'day' || p.type === 'month').map((p) => p.type);
  return order[0] === 'day';
}

function valid(year: number, month: number, day: number): Day | undefined {
  if (month < 1 || month > 12 || day < 1 || year < 1000 || year > 9999) return undefined;
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCMonth() === month - 1 && at.getUTCDate() === day ? { year, month, day } : undefined;
}

function monthOf(word: string, names: string[][]): number | undefined {
  const w = word.toLowerCase().replace(/\.$/, '');
  const index = names.findIndex((forms) => forms.includes(w));
  return index >= 0 ? index + 1 : undefined;
}

/**
 * The day a text names, if it names exactly one; undefined for anything else (a placeholder, a range). Numeric
 * dates are read in `first`'s order (a field's own format), else the page's; a date that is only valid the other
 * way round ("15.03.2027" on an en-US page) is read that way.
 */
export function parseDay(text: string, locale = pageLocale(), first?: 'day' | 'month'): Day | undefined {
  const t = text
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/ ?([/.\-]) ?/g, '$1');
  if (!t) return undefined;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s].*)?$/.exec(t);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const numeric = /^(\d{1,4})[/.\-\s](\d{1,2})[/.\-\s](\d{1,4})$/.exec(t);
  if (numeric) {
    const [a, b, c] = [Number(numeric[1]), Number(numeric[2]), Number(numeric[3])];
    if ((numeric[1] ?? '').length === 4) return valid(a, b, c);
    if ((numeric[3] ?? '').length !== 4) return undefined;
    const dayThenMonth = first ? first === 'day' : dayFirst(locale);
    return dayThenMonth ? (valid(c, b, a) ?? valid(c, a, b)) : (valid(c, a, b) ?? valid(c, b, a));
  }
  // words: a month name, a day number (1st, 2nd), a four-digit year, anything else (a weekday) ignored
  const names = monthNames(locale);
  let month: number | undefined;
  let day: number | undefined;
  let year: number | undefined;
  for (const token of t.split(/[\s,]+/).filter(Boolean)) {
    const asMonth = monthOf(token, names);
    const number = /^(\d{1,4})(?:st|nd|rd|th|\.)?$/i.exec(token);
    if (asMonth !== undefined && month === undefined) month = asMonth;
    else if (number?.[1] && number[1].length === 4 && year === undefined) year = Number(number[1]);
    else if (number?.[1] && number[1].length <= 2 && day === undefined) day = Number(number[1]);
  }
  return month !== undefined && day !== undefined && year !== undefined ? valid(year, month, day) : undefined;
}

export function sameDay(a: Day | undefined, b: Day | undefined): boolean {
  return Boolean(a && b && a.year === b.year && a.month === b.month && a.day === b.day);
}

/** "2027-03-15" */
export function isoDay(d: Day): string {
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Months from `from` to `to` (negative: back). */
export function monthsBetween(from: Pick<Day, 'year' | 'month'>, to: Pick<Day, 'year' | 'month'>): number {
  return (to.year - from.year) * 12 + (to.month - from.month);
}

/** The month and year a calendar's caption shows ("March 2027", "März 2027", "2027年3月"). */
export function parseMonth(text: string, locale = pageLocale()): Pick<Day, 'year' | 'month'> | undefined {
  const names = monthNames(locale);
  const year = /\b(\d{4})\b/.exec(text)?.[1];
  if (!year) return undefined;
  for (const token of text.split(/[\s,]+/)) {
    const month = monthOf(token, names);
    if (month !== undefined) return { year: Number(year), month };
  }
  const cjk = /(\d{4})\s*年\s*(\d{1,2})\s*月/.exec(text);
  return cjk ? { year: Number(cjk[1]), month: Number(cjk[2]) } : undefined;
}

/**
 * The day written the way a text box's placeholder shows its format ("MM/DD/YYYY", "dd.mm.yyyy"), or undefined
 * when the placeholder is not a format.
 */
export function formatLike(placeholder: string, d: Day): string | undefined {
  const match = /^(d{1,2}|m{1,2}|y{4})([/.\-\s])(d{1,2}|m{1,2}|y{2,4})\2(d{1,2}|m{1,2}|y{2,4})$/i.exec(
    placeholder.trim(),
  );
  if (!match) return undefined;
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  const part = (token: string) => {
    const t = token.toLowerCase();
    if (t.startsWith('y')) return t.length === 2 ? pad(d.year % 100, 2) : String(d.year);
    if (t.startsWith('m')) return pad(d.month, t.length);
    return pad(d.day, t.length);
  };
  const tokens = [match[1], match[3], match[4]].map((t) => part(t ?? ''));
  return tokens.join(match[2] ?? '/');
}

/** A date format written in a text ("Format: MM/DD/YYYY", "dd.mm.yyyy"), as formatLike takes it. */
export function formatIn(text: string): string | undefined {
  return /\b(?:d{1,2}|m{1,2}|y{4})([/.\-])(?:d{1,2}|m{1,2}|y{2,4})\1(?:d{1,2}|m{1,2}|y{2,4})\b/i.exec(text)?.[0];
}

/**
 * The format an input's pattern asks for (`\d{2}/\d{2}/\d{4}`, `[0-9]{4}-[0-9]{2}-[0-9]{2}`): its separator and
 * where the year goes; day and month in the page's own order.
 */
export function formatOfPattern(pattern: string, locale = pageLocale()): string | undefined {
  const part = String.raw`(?:\\d|\[0-9\])\{(\d)\}`;
  const match = new RegExp(`^\\^?${part}\\\\?([/.\\-])${part}\\\\?\\2${part}\\$?$`).exec(pattern.trim());
  if (!match) return undefined;
  const [a, separator = '/', b, c] = [Number(match[1]), match[2], Number(match[3]), Number(match[4])];
  if (a === 4 && b === 2 && c === 2) return ['yyyy', 'mm', 'dd'].join(separator);
  if (a === 2 && b === 2 && c === 4)
    return (dayFirst(locale) ? ['dd', 'mm', 'yyyy'] : ['mm', 'dd', 'yyyy']).join(separator);
  return undefined;
}

/** The day in the page's own numeric format ("03/15/2027" in en-US), for a text box with no format hint. */
export function formatLocal(d: Day, locale = pageLocale()): string {
  return new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
    Date.UTC(d.year, d.month - 1, d.day),
  );
}
