import { isA } from '../dom/realm.js';
import { isListboxButton, labelledFromOutside, labelText, roleOf } from '../dom/aria.js';
import { isTextControl } from '../act/values.js';
import { isVisible } from '../dom/visible.js';
import { formatIn, formatOfPattern } from './dates.js';

/**
 * Widgets by their pattern, whatever library drew them: what makes an element a date field, a date picker
 * button, a slider, a radio group. form_fill and self_ui ask these, never a library's class names.
 */

/** A date field made of spinbutton segments (month, day, year) in a group: React Aria, React Spectrum. */
export function isDateGroup(el: Element): boolean {
  return el.getAttribute('role') === 'group' && el.querySelectorAll('[role=spinbutton]').length >= 2;
}

/** A button that opens a popup (a calendar, a list in a popover) and is labelled as a form control. */
export function isPickerButton(el: Element): boolean {
  const popup = el.getAttribute('aria-haspopup');
  if (popup !== 'dialog' && popup !== 'grid') return false;
  if (el.getAttribute('role') === 'combobox' || isListboxButton(el)) return false;
  if (!(isA(el, HTMLButtonElement) || el.getAttribute('role') === 'button')) return false;
  // its name comes from a label outside it (label[for], aria-labelledby), not only from its own text
  return labelledFromOutside(el);
}

/** A radio group whose options are ARIA radios (Radix, shadcn), not native inputs grouped by name. */
export function isAriaRadioGroup(el: Element): boolean {
  return el.getAttribute('role') === 'radiogroup' && Boolean(el.querySelector('[role=radio]:not(input)'));
}

/** role=slider (a thumb) or a native range input. */
export function isSlider(el: Element): boolean {
  return roleOf(el) === 'slider';
}

/** A spinbutton that is not a text box: it changes by keys (ArrowUp/ArrowDown) and shows aria-valuenow. */
export function isKeySpinbutton(el: Element): boolean {
  return roleOf(el) === 'spinbutton' && !isTextControl(el);
}

const DATE_INPUTS = new Set(['date', 'datetime-local', 'month', 'week']);

export function isNativeDate(el: Element): el is HTMLInputElement {
  return isA(el, HTMLInputElement) && DATE_INPUTS.has(el.type);
}

/**
 * The button beside a text box that opens its calendar (Chakra's "Open calendar", a date picker's icon button):
 * in the same small container as the box, with a popup or a calendar-ish name.
 */
export function calendarTrigger(input: Element): Element | undefined {
  let node = input.parentElement;
  for (let depth = 0; node && depth < 3; node = node.parentElement, depth++) {
    const fields = node.querySelectorAll('input:not([type=hidden]), select, textarea');
    if (fields.length > 1) return undefined;
    const trigger = [...node.querySelectorAll('button, [role=button]')].find(
      (b) =>
        isVisible(b) &&
        (['dialog', 'grid'].includes(b.getAttribute('aria-haspopup') ?? '') ||
          /calendar|date/i.test(labelText(b) || b.getAttribute('title') || '')),
    );
    if (trigger) return trigger;
  }
  return undefined;
}

/**
 * The format a text box asks a day in, where it says: its placeholder ("MM/DD/YYYY"), its pattern
 * (`\d{2}.\d{2}.\d{4}`), or a hint it is described by ("Format: DD.MM.YYYY").
 */
export function dateFormatOf(el: Element): string | undefined {
  const placeholder = formatIn(el.getAttribute('placeholder') ?? '');
  if (placeholder) return placeholder;
  const pattern = el.getAttribute('pattern');
  const fromPattern = pattern ? formatOfPattern(pattern) : undefined;
  if (fromPattern) return fromPattern;
  const hint = (el.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => el.ownerDocument.getElementById(id)?.textContent ?? '')
    .join(' ');
  return formatIn(hint);
}

/** Whether a text box takes a date: a calendar opens from it, its label and placeholder say so, or it names a format. */
export function isDateText(el: Element, label: string): boolean {
  if (!isTextControl(el) || isA(el, HTMLTextAreaElement)) return false;
  if (calendarTrigger(el) || dateFormatOf(el)) return true;
  const hint = `${label} ${el.getAttribute('placeholder') ?? ''}`;
  return /\b(date|birthday|dd[/.-]mm|mm[/.-]dd|yyyy)\b/i.test(hint);
}
