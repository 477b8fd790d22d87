import { clickSequence } from '../act/events.js';
import { parseChord, press } from '../act/keys.js';
import { fireChange, fireInput, setNativeValue } from '../act/values.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { isoDay, monthsBetween, parseDay, parseMonth, type Day } from './dates.js';

/**
 * Picking a day in a calendar popup, the way a person does: open it, go to the month (the month and year
 * dropdowns when it has them, else the previous/next buttons, checking the caption after each), press the day.
 * Works from the pattern every date picker shares — a grid of day buttons under a "March 2027" caption — so
 * Mantine, React Aria, react-day-picker (shadcn), react-datepicker and Ark (Chakra) are one code path.
 */

/** The calendar did not give the day: it did not open, cannot reach the month, or the day is disabled. */
export class CalendarError extends Error {}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 16)));

const DAY_CELL = 'button, [role=gridcell], [role=option], [role=button], td';
const isDayNumber = (c: Element) => /^\d{1,2}$/.test(normalize(c.textContent));

/**
 * A month's grid: role=grid, or a table, with at least four weeks of day numbers; else (a calendar of buttons laid
 * out by CSS) the smallest element that holds 28 or more day buttons.
 */
function grids(doc: Document): Element[] {
  const marked = [...doc.querySelectorAll('[role=grid], table')].filter(
    (g) => isVisible(g) && [...g.querySelectorAll(DAY_CELL)].filter(isDayNumber).length >= 28,
  );
  const counts = new Map<Element, number>();
  for (const cell of doc.querySelectorAll(DAY_CELL)) {
    if (!isDayNumber(cell) || cell.closest('[role=grid], table') || !isVisible(cell)) continue;
    let node = cell.parentElement;
    for (let depth = 0; node && depth < 4; node = node.parentElement, depth++)
      counts.set(node, (counts.get(node) ?? 0) + 1);
  }
  const full = [...counts].filter(([, n]) => n >= 28).map(([el]) => el);
  const smallest = full.filter((el) => !full.some((other) => other !== el && el.contains(other)));
  return [...marked, ...smallest];
}

/** The month most of a calendar's labelled day cells name (aria-label "Monday, March 15, 2027", data-date). */
function monthOfCells(calendar: Element): { year: number; month: number } | undefined {
  const tally = new Map<string, number>();
  for (const cell of calendar.querySelectorAll(DAY_CELL)) {
    if (outside(cell)) continue;
    const label = cell.getAttribute('aria-label') || cell.getAttribute('data-date') || cell.getAttribute('data-day');
    const day = label ? parseDay(label.replace(/^(choose|select|today,?)\s+/i, '')) : undefined;
    if (day) tally.set(`${day.year}-${day.month}`, (tally.get(`${day.year}-${day.month}`) ?? 0) + 1);
  }
  const [best] = [...tally].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] < 7) return undefined;
  const [year = 0, month = 0] = best[0].split('-').map(Number);
  return { year, month };
}

/** The calendar around a grid: the smallest ancestor that also holds its caption and navigation. */
function calendarOf(grid: Element): Element {
  let node: Element = grid;
  for (let depth = 0; depth < 6 && node.parentElement; depth++) {
    if (captionOf(node) && (monthSelects(node) || navButton(node, 'next'))) return node;
    node = node.parentElement;
  }
  return grid.parentElement ?? grid;
}

/** The month a calendar shows: its grid's label, a live caption, a heading, or any short text naming a month. */
function captionOf(calendar: Element): { year: number; month: number } | undefined {
  const selects = monthSelects(calendar);
  if (selects) return { year: Number(selects.year.value), month: Number(selects.month.selectedIndex) + 1 };
  const labelled = [
    calendar,
    ...calendar.querySelectorAll('[role=grid][aria-label], [aria-live], [role=heading], h1, h2, h3, h4'),
  ];
  for (const el of labelled) {
    const text = el.getAttribute('aria-label') || (el === calendar ? '' : normalize(el.textContent));
    const month = text && text.length < 60 ? parseMonth(text) : undefined;
    if (month) return month;
  }
  for (const el of calendar.querySelectorAll('button, span, div, strong, caption, th')) {
    if (el.children.length > 2) continue;
    const text = normalize(el.textContent);
    const month = text.length < 40 ? parseMonth(text) : undefined;
    if (month) return month;
  }
  // no caption a person can read as text (an image, icons): the month the grid's own days say they are in
  return monthOfCells(calendar);
}

/** react-day-picker's captionLayout="dropdown" and the like: a select of 12 months and one of years. */
function monthSelects(calendar: Element): { month: HTMLSelectElement; year: HTMLSelectElement } | undefined {
  const selects = [...calendar.querySelectorAll('select')];
  const month = selects.find((s) => s.options.length === 12 && [...s.options].some((o) => /[a-z]/i.test(o.text)));
  const year = selects.find((s) => s !== month && [...s.options].every((o) => /^\d{4}$/.test(o.value || o.text)));
  return month && year ? { month, year } : undefined;
}

const NEXT = /next|forward|›|»|→|▶|⟩|>/i;
const PREVIOUS = /prev|back|‹|«|←|◀|⟨|</i;

function navButton(calendar: Element, direction: 'next' | 'previous'): Element | undefined {
  const pattern = direction === 'next' ? NEXT : PREVIOUS;
  const other = direction === 'next' ? PREVIOUS : NEXT;
  return [...calendar.querySelectorAll('button, [role=button]')].find((b) => {
    if (!isVisible(b)) return false;
    const marks = [
      b.getAttribute('aria-label'),
      b.getAttribute('title'),
      b.getAttribute('slot'),
      b.getAttribute('data-direction'),
      b.getAttribute('data-part'),
      typeof b.className === 'string' ? b.className : '',
      /^\d+$/.test(normalize(b.textContent)) ? '' : normalize(b.textContent),
    ]
      .filter(Boolean)
      .join(' ');
    return pattern.test(marks) && !other.test(marks.replace(pattern, ''));
  });
}

/**
 * Looks for `find` each frame for `ms`, and for at least 30 frames: on a loaded machine the page may get only a few
 * frames in that time, and a calendar that re-renders on its next frame is not "stuck".
 */
async function waitFor<T>(find: () => T | undefined, ms: number): Promise<T | undefined> {
  const until = Date.now() + ms;
  let frames = 0;
  do {
    const found = find();
    if (found) return found;
    await frame();
    frames++;
  } while (Date.now() < until || frames < 30);
  return undefined;
}

/** Goes to `day`'s month; a CalendarError when the calendar cannot get there. */
async function goToMonth(calendar: () => Element | undefined, day: Day, what: string): Promise<void> {
  const root = calendar();
  const selects = root && monthSelects(root);
  if (selects) {
    const year = [...selects.year.options].find((o) => Number(o.value || o.text) === day.year);
    if (!year) throw new CalendarError(`${what} offers no year ${day.year} in its calendar`);
    for (const [select, value] of [
      [selects.year, year.value],
      [selects.month, selects.month.options[day.month - 1]?.value ?? ''],
    ] as const) {
      setNativeValue(select, value);
      fireInput(select);
      fireChange(select);
      await frame();
    }
  }
  for (let steps = 0; steps < 240; steps++) {
    const now = calendar();
    const shown = now && captionOf(now);
    if (!now || !shown) throw new CalendarError(`${what}: the calendar shows no month caption to navigate by`);
    const diff = monthsBetween(shown, day);
    if (diff === 0) return;
    const button = navButton(now, diff > 0 ? 'next' : 'previous');
    if (!button || isDisabled(button))
      throw new CalendarError(
        `${what}: the calendar cannot go ${diff > 0 ? 'forward' : 'back'} from ${shown.year}-${String(shown.month).padStart(2, '0')} toward ${isoDay(day)}`,
      );
    clickSequence(button);
    const moved = await waitFor(() => {
      const after = calendar();
      const month = after && captionOf(after);
      return month && monthsBetween(shown, month) !== 0 ? month : undefined;
    }, 3000);
    if (!moved) throw new CalendarError(`${what}: the calendar did not change month when its button was pressed`);
  }
  throw new CalendarError(`${what}: ${isoDay(day)} is more than 20 years of months away in the calendar`);
}

/** Outside the month shown (the greyed days of the weeks around it). */
function outside(cell: Element): boolean {
  const marks = [cell, cell.closest('td, [role=gridcell]')].filter((e): e is Element => Boolean(e));
  return marks.some(
    (e) =>
      ['data-outside', 'data-outside-month', 'data-outside-range', 'data-outside-visible-range'].some((a) =>
        e.hasAttribute(a),
      ) || /outside/i.test(typeof e.className === 'string' ? e.className : ''),
  );
}

/** The cell of `day` in the shown month: by its full-date label when it has one, else by its number. */
function dayCell(calendar: Element, day: Day): Element | undefined {
  const cells = [...calendar.querySelectorAll('button, [role=gridcell], [role=option], [role=button], td')].filter(
    isVisible,
  );
  const labelled = cells.find((c) => {
    const label = c.getAttribute('aria-label') || c.getAttribute('data-day') || c.getAttribute('data-value');
    return label && isoOf(label) === isoDay(day);
  });
  if (labelled) return pressable(labelled);
  const numbered = cells.filter((c) => normalize(c.textContent) === String(day.day) && !outside(c));
  const inner = numbered.find((c) => !numbered.some((o) => o !== c && c.contains(o)));
  return inner ? pressable(inner) : undefined;
}

function isoOf(label: string): string | undefined {
  const parsed = parseDay(label.replace(/^(choose|select|today,?)\s+/i, ''));
  return parsed ? isoDay(parsed) : undefined;
}

/** The part of a cell a person presses: its button when the cell holds one. */
function pressable(cell: Element): Element {
  return cell.querySelector('button, [role=button]') ?? cell;
}

/**
 * Opens the calendar of `opener` (a picker button, a date text box, a date field's calendar button), goes to the
 * month of `day` and presses it. A CalendarError says what stopped it.
 */
export async function pickDay(opener: Element, day: Day, what: string): Promise<void> {
  const doc = opener.ownerDocument;
  const before = new Set(grids(doc));
  // the calendar this opener controls (aria-controls), else the one that appeared since it was pressed
  const controlled = () => {
    const id = opener.getAttribute('aria-controls');
    const target = id ? doc.getElementById(id) : null;
    const all = grids(doc);
    return (target ? all.find((g) => target.contains(g)) : undefined) ?? all.find((g) => !before.has(g));
  };
  let grid = opener.getAttribute('aria-expanded') === 'true' ? controlled() : undefined;
  if (!grid) {
    // a text box's calendar opens on focus or click; a button's on its press
    (opener as HTMLElement).focus?.();
    clickSequence(opener);
    grid = await waitFor(controlled, 3000);
  }
  if (!grid) throw new CalendarError(`${what} did not open a calendar when pressed`);
  const calendar = () => {
    const g = controlled();
    return g ? calendarOf(g) : undefined;
  };
  await goToMonth(calendar, day, what);
  const root = calendar();
  const cell = root && dayCell(root, day);
  if (!cell) throw new CalendarError(`${what}: the calendar shows no day ${isoDay(day)}`);
  if (isDisabled(cell) || cell.closest('[aria-disabled=true], [data-disabled]'))
    throw new CalendarError(`${what}: ${isoDay(day)} cannot be chosen (the calendar disables it)`);
  cell.scrollIntoView({ block: 'nearest', behavior: 'instant' });
  clickSequence(cell);
  await frame();
  // most pickers close on a choice; a calendar in a plain popover (shadcn) stays until Escape
  const still = controlled();
  if (still && still.isConnected && isVisible(still)) press(doc.activeElement ?? opener, parseChord('Escape'));
  await frame();
}
