import { isA } from '../dom/realm.js';
import { keyOnly, parseChord } from '../act/keys.js';
import { fireChange, fireInput, isTextControl, setNativeValue } from '../act/values.js';
import { normalize } from '../dom/visible.js';
import { CalendarError, pickDay } from './calendar.js';
import { formatLike, formatLocal, isoDay, parseDay, sameDay, type Day } from './dates.js';
import { calendarTrigger, isDateGroup, isNativeDate, isPickerButton } from './kinds.js';

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
  const text = normalize(out);
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
  const placeholder = el.getAttribute('placeholder') ?? '';
  setText(el, formatLike(placeholder, day) ?? formatLocal(day));
  // most parse on Enter or on blur; Enter's own action (submitting the form) is not wanted here
  keyOnly(el, parseChord('Enter'));
  await frame();
  if (el.ownerDocument.activeElement === el) el.blur();
  await frame();
  return sameDay(parseDay(el.value), day);
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
      if (await typeDay(el, day)) return el.value;
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
