import { isA } from '../dom/realm.js';
import { keyOnly, parseChord, press } from '../act/keys.js';
import { fireChange, fireInput, isTextControl, setNativeValue } from '../act/values.js';
import { normalize } from '../dom/visible.js';
import { CalendarError, pickDay } from './calendar.js';
import { formatLike, formatLocal, isoDay, parseDay, sameDay, type Day } from './dates.js';
import { calendarTrigger, dateFormatOf, isDateGroup, isNativeDate, isPickerButton } from './kinds.js';

/**
 * Date fields of every shape: a native date input, a text box that parses what is typed (react-datepicker,
 * Chakra's DatePicker.Input), a button that opens a calendar (Mantine's DatePickerInput, shadcn's date picker),
 * a group of segments with a calendar button (React Aria's DatePicker). The value is a day ("2027-03-15" or any
 * way of writing one); what the field shows afterwards is compared by the day it names.
 */
export class DateFieldError extends Error {}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 16)));

/** The text of a date field without its buttons: a picker button's label, a segmented field's segments. */
export function dateText(el: Element): string {
  if (isTextControl(el)) return el.value;
  const text = dateTextOf(el);
  // a placeholder ("Pick a date", "mm/dd/yyyy" segments) is no value
  return parseDay(text) ? text : '';
}

/** A date field's own text, without its buttons, icons and aria-hidden parts. */
function dateTextOf(el: Element): string {
  if (isTextControl(el)) return el.value;
  let out = '';
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent ?? '';
      else if (
        isA(child, Element) &&
        child.localName !== 'svg' &&
        // MUI's outlined notch repeats the label inside the field (an aria-hidden fieldset); React Aria's "/"
        // between segments is aria-hidden too, and is part of the day
        child.localName !== 'fieldset' &&
        !(child !== el && child.matches('button, [role=button]'))
      )
        walk(child);
    }
  };
  walk(el);
  // one space at most around a separator, then none: linear, whatever runs of spaces the text holds
  return normalize(out)
    .replace(/\s+/g, ' ')
    .replace(/ ?([/.\-]) ?/g, '$1');
}

function setText(el: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  el.focus();
  setNativeValue(el, text);
  fireInput(el, text);
  fireChange(el);
}

async function typeDay(el: HTMLInputElement, day: Day): Promise<boolean> {
  const format = dateFormatOf(el);
  setText(el, (format && formatLike(format, day)) ?? formatLocal(day));
  const first = format ? ({ d: 'day', m: 'month' } as const)[format.charAt(0).toLowerCase() as 'd' | 'm'] : undefined;
  // most parse on Enter or on blur; Enter's own action (submitting the form) is not wanted here
  keyOnly(el, parseChord('Enter'));
  await frame();
  if (el.ownerDocument.activeElement === el) el.blur();
  await frame();
  return sameDay(parseDay(el.value, undefined, first), day);
}

type Part = 'year' | 'month' | 'day';
type TimePart = 'hour' | 'minute' | 'meridiem';

/** Which part of a time a segment holds, by its name (Hours, Minutes, Meridiem / AM-PM). */
function timePart(seg: Element): TimePart | undefined {
  const marks = ['data-type', 'data-segment', 'aria-label'].map((a) => seg.getAttribute(a) ?? '').join(' ');
  if (/hour|stunde|heure|時/i.test(marks)) return 'hour';
  if (/minute|minuten|分/i.test(marks)) return 'minute';
  if (/meridiem|dayperiod|am\s*\/\s*pm|\bam\b|\bpm\b/i.test(marks)) return 'meridiem';
  return undefined;
}

/** A field of time segments (hours, minutes): MUI X's TimePicker, React Aria's TimeField. */
export function isTimeGroup(el: Element): boolean {
  if (!isDateGroup(el)) return false;
  const segments = [...el.querySelectorAll('[role=spinbutton]')];
  return segments.some((s) => timePart(s) === 'hour') && !segments.some((s) => segmentPart(s) === 'year');
}

/** The time a field of segments shows ("02:30 PM"), its aria-hidden parts left out. */
export function timeText(el: Element): string {
  const text = dateTextOf(el);
  return /\d/.test(text) ? text : '';
}

/** "14:30", "2:30 pm": the hour (0–23) and minute, or undefined. */
function parseTime(value: string): { hour: number; minute: number } | undefined {
  const m = /^(\d{1,2}):(\d{2})\s*([ap]\.?m\.?)?$/i.exec(value.trim());
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = Number(m[2]);
  const period = m[3]?.toLowerCase().charAt(0);
  if (period === 'p' && hour < 12) hour += 12;
  if (period === 'a' && hour === 12) hour = 0;
  return hour < 24 && minute < 60 ? { hour, minute } : undefined;
}

/** Sets a time field's segments from the keyboard; returns what it shows. A DateFieldError when it cannot. */
export async function setTime(group: Element, value: string, what: string): Promise<string> {
  const time = parseTime(value);
  if (!time) throw new DateFieldError(`${JSON.stringify(value)} is not a time; give it as HH:MM, e.g. "14:30"`);
  const parts = new Map<TimePart, Element>();
  for (const seg of group.querySelectorAll('[role=spinbutton]')) {
    const part = timePart(seg);
    if (part && !parts.has(part)) parts.set(part, seg);
  }
  const meridiem = parts.get('meridiem');
  const twelve = Boolean(meridiem) || Number(parts.get('hour')?.getAttribute('aria-valuemax')) === 12;
  const hour = twelve ? time.hour % 12 || 12 : time.hour;
  const hourSeg = parts.get('hour');
  const minuteSeg = parts.get('minute');
  if (!hourSeg || !minuteSeg) throw new DateFieldError(`${what} has no hour and minute segments to set`);
  await setSegment(hourSeg, hour, 'day');
  await setSegment(minuteSeg, time.minute, 'day');
  if (meridiem) {
    (meridiem as HTMLElement).focus?.();
    press(meridiem, parseChord(time.hour >= 12 ? 'P' : 'A'));
    await frame();
  }
  const active = group.ownerDocument.activeElement;
  if (isA(active, HTMLElement) && group.contains(active)) active.blur();
  await frame();
  return timeText(group);
}

/** Which part of a day a segment holds: by its name or marks, else by its range (12 months, 31 days, a year). */
function segmentPart(seg: Element): Part | undefined {
  const marks = ['data-type', 'data-segment', 'aria-label', 'data-placeholder', 'placeholder']
    .map((a) => seg.getAttribute(a) ?? '')
    .join(' ')
    .toLowerCase();
  if (/year|yyyy|jahr|année|年/.test(marks)) return 'year';
  if (/month|\bmm\b|monat|mois|月/.test(marks)) return 'month';
  if (/\bday\b|\bdd\b|\btag\b|jour|日/.test(marks)) return 'day';
  const max = Number(seg.getAttribute('aria-valuemax'));
  if (max >= 1000) return 'year';
  if (max === 12) return 'month';
  if (max >= 28 && max <= 31) return 'day';
  return undefined;
}

/** Sets one segment: the digits typed as a person types them, else ArrowUp/ArrowDown until it shows the number. */
async function setSegment(seg: Element, wanted: number, part: Part): Promise<void> {
  const now = () => Number(seg.getAttribute('aria-valuenow') ?? Number.NaN);
  (seg as HTMLElement).focus?.();
  if (now() === wanted) return;
  for (const digit of part === 'year' ? String(wanted) : String(wanted).padStart(2, '0')) {
    press(seg, parseChord(digit));
    await frame();
  }
  for (let presses = 0; now() !== wanted && presses < 400; presses++) {
    const shown = now();
    press(seg, parseChord(Number.isNaN(shown) || shown < wanted ? 'ArrowUp' : 'ArrowDown'));
    await frame();
  }
}

/**
 * A date field of segments (month, day, year spinbuttons: React Aria, MUI X, Bits UI): each segment set by the
 * keys. False when its segments are not the three parts of a day.
 */
async function setSegments(group: Element, day: Day): Promise<boolean> {
  const parts = new Map<Part, Element>();
  for (const seg of group.querySelectorAll('[role=spinbutton]')) {
    const part = segmentPart(seg);
    if (part && !parts.has(part)) parts.set(part, seg);
  }
  if (parts.size !== 3) return false;
  for (const [part, seg] of parts) await setSegment(seg, day[part], part);
  const active = group.ownerDocument.activeElement;
  if (isA(active, HTMLElement) && group.contains(active)) active.blur();
  await frame();
  return true;
}

/** Sets the date field `el` to `value`; returns what it shows. A DateFieldError says why it could not. */
export async function setDate(el: Element, value: string, what: string): Promise<string> {
  const day = parseDay(value);
  if (!day)
    throw new DateFieldError(`${JSON.stringify(value)} is not a date; give it as YYYY-MM-DD, e.g. "2027-03-15"`);
  try {
    if (isNativeDate(el)) {
      const text = el.type === 'month' ? isoDay(day).slice(0, 7) : isoDay(day);
      el.focus();
      setNativeValue(el, el.type === 'datetime-local' ? `${text}T${el.value.split('T')[1] || '00:00'}` : text);
      fireInput(el);
      fireChange(el);
      return el.value;
    }
    if (isDateGroup(el)) {
      if ((await setSegments(el, day)) && sameDay(parseDay(dateText(el)), day)) return dateText(el);
      const button =
        el.querySelector('button[aria-haspopup=dialog], [role=button][aria-haspopup=dialog]') ??
        [...el.querySelectorAll('button, [role=button]')].find((b) =>
          /calendar|date|choose/i.test(b.getAttribute('aria-label') ?? b.getAttribute('title') ?? ''),
        );
      if (!button) throw new DateFieldError(`${what} has no calendar button to pick the day with`);
      await pickDay(button, day, what);
      return dateText(el);
    }
    if (isPickerButton(el)) {
      await pickDay(el, day, what);
      return dateText(el);
    }
    if (isA(el, HTMLInputElement) && isTextControl(el)) {
      // a read-only box takes no typing from a person: only its calendar sets it
      if (!el.readOnly && (await typeDay(el, day))) return el.value;
      // it did not take the typed day: pick it in its calendar
      await pickDay(calendarTrigger(el) ?? el, day, what);
      if (el.ownerDocument.activeElement === el) el.blur();
      return el.value;
    }
  } catch (error) {
    if (error instanceof CalendarError) throw new DateFieldError(error.message);
    throw error;
  }
  throw new DateFieldError(`${what} is not a date field form_fill knows`);
}
