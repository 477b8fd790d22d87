import { isA } from '../dom/realm.js';
import { isListboxButton, labelText } from '../dom/aria.js';
import { isVisible, normalize } from '../dom/visible.js';
import { isAriaRadioGroup, isDateGroup, isDateText, isNativeDate, isPickerButton } from './kinds.js';
import { containerLabel, formItemLabel, groupLabel } from './labels.js';

/**
 * What a field is: the elements that may be one (FIELD_SELECTOR, isWhole), the widget around a field, the
 * fields beside it, and the text a person reads as its label. Everything else in ui/ builds on these.
 */

export const FIELD_SELECTOR = [
  'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])',
  'select',
  'textarea',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[role=textbox]:not(input):not(textarea)',
  '[role=checkbox]:not(input)',
  '[role=switch]:not(input)',
  '[role=radio]:not(input)',
  '[role=slider]:not(input)',
  '[role=spinbutton]:not(input)',
  // composite widgets: MUI/Radix/Ant selects are a role=combobox element, lists a role=listbox, a Headless UI
  // Listbox a button that pops up a listbox
  '[role=combobox]:not(input)',
  'button[aria-haspopup]:not([role])',
  'button[aria-expanded]:not([role])',
  '[role=button][aria-haspopup]',
  '[role=button][aria-expanded]',
  '[role=listbox]:not(select)',
  // wholes made of parts: a date field of segments, a radio group of ARIA radios, a date picker's button
  '[role=group]',
  '[role=radiogroup]',
  'button[aria-haspopup=dialog]',
  'button[aria-haspopup=grid]',
  '[role=button][aria-haspopup=dialog]',
].join(', ');

/** Groups and popup buttons are matched broadly by the selector: only these patterns are fields. */
export function isWhole(el: Element): boolean {
  const role = el.getAttribute('role');
  if (role === 'group') return isDateGroup(el);
  if (role === 'radiogroup') return isAriaRadioGroup(el);
  const popup = el.getAttribute('aria-haspopup');
  // a button that opens a dialog is a field only as a date picker's (or another picker's) button; a text box
  // that opens one (Angular Material's datepicker input) is a text box
  const button = (el.localName === 'button' && !role) || role === 'button';
  if (button && (popup === 'dialog' || popup === 'grid')) return isPickerButton(el);
  // any other button with a popup or aria-expanded: a field only as a select (it opens a list, and a label outside
  // it names it); a menu or disclosure button is a button
  if (button) return isListboxButton(el);
  return true;
}

/**
 * Another field beside `box`, whatever is aria-hidden at the moment (a modal menu hides the dialog it opened
 * in), but not a library's hidden shadow input next to a widget (MUI Select's native input, React Aria's select).
 */
export function otherField(o: Element, box: Element): boolean {
  if (o === box || box.contains(o) || !o.matches(FIELD_SELECTOR) || !isWhole(o)) return false;
  const hidden = o.closest('[aria-hidden=true], [inert]');
  if (hidden && !hidden.contains(box)) return false;
  return (
    isVisible(o) ||
    Boolean((o as HTMLInputElement).labels && [...((o as HTMLInputElement).labels ?? [])].some(isVisible))
  );
}

/** How far up from the box the widget's own elements may be (control, value container, root). */
const DEPTH = 5;

/**
 * The widget around a box: the largest ancestor (a few levels up) that holds no other field, where a library
 * puts the chips, its hidden native select and its value text.
 */
export function widgetRoot(box: Element): Element {
  let root: Element = box;
  for (let node = box.parentElement, depth = 0; node && depth < DEPTH; node = node.parentElement, depth++) {
    if ([...node.querySelectorAll('*')].some((o) => otherField(o, box))) break;
    if (node.matches('form, body, [role=dialog], [role=group][aria-labelledby], fieldset')) break;
    root = node;
  }
  return root;
}

/** The text a person reads beside a field: label, aria-label, placeholder, legend of its group, name. */
export function fieldLabel(el: Element): string {
  // a radio button's own label names one option; the group is named by its legend or radiogroup
  if (isA(el, HTMLInputElement) && el.type === 'radio') {
    const group = el.closest('[role=radiogroup]');
    const groupName = group ? groupLabel(group) || containerLabel(group, (o) => otherField(o, group)) : '';
    if (groupName) return groupName;
    const legend = el.closest('fieldset')?.querySelector('legend');
    if (legend) return normalize(legend.textContent);
    const item = formItemLabel(el);
    if (item) return item;
    if (el.name) return el.name;
  }
  if (isAriaRadioGroup(el) || isDateGroup(el)) {
    const own = groupLabel(el) || formItemLabel(el) || containerLabel(el, (o) => otherField(o, el));
    if (own) return own;
  }
  const label = labelText(el);
  if (label) return label;
  const item = formItemLabel(el);
  if (item) return item;
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) return normalize(placeholder);
  const title = el.getAttribute('title');
  if (title) return normalize(title);
  const beside = containerLabel(el, (o) => otherField(o, el));
  if (beside) return beside;
  return el.getAttribute('name') ?? el.id ?? '';
}

/** Whether a field takes a day: a date input, a date group, a picker button or text box that says it does. */
export function takesDate(el: Element): boolean {
  return isNativeDate(el) || isDateGroup(el) || isPickerButton(el) || isDateText(el, fieldLabel(el));
}
