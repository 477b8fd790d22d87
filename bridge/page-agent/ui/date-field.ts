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
  let out = '';
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent ?? '';
      else if (
        isA(child, Element) &&
        child.localName !== 'svg' &&
        !(child !== el && child.matches('button, [role=button]'))
      )
        walk(child);
    }
  };
  walk(el);
  const text = normalize(out).replace(/\s*([/.\-])\s*/g, '$1');
  // a placeholder ("Pick a date", "mm/dd/yyyy" segments) is no value
  return parseDay(text) ? text : '';
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
      const button = el.querySelector('button[aria-haspopup=dialog], [role=button][aria-haspopup=dialog]');
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
