import { isA } from '../dom/realm.js';
import { isTextControl } from '../act/values.js';
import { dialogTitle, isListboxButton, roleOf } from '../dom/aria.js';
import { deepQueryAll } from '../dom/deep.js';
import { isVisible, normalize } from '../dom/visible.js';
import { chipsIn } from './chips.js';
import { FIELD_SELECTOR, isWhole, widgetRoot } from './field.js';
import { isComposite } from './combobox.js';
import { isAriaRadioGroup, isDateGroup } from './kinds.js';

export { optionLabel } from './labels.js';

/** Open dialogs and the form controls inside a scope, shared by UI.scan and UI.fill. */

export const DIALOG_SELECTOR = [
  'dialog[open]',
  '[role=dialog]',
  '[role=alertdialog]',
  '[aria-modal=true]',
  '.modal.show',
  '.modal.in',
  '.ant-modal',
  '.MuiDialog-paper',
  '.el-dialog',
  '.v-dialog--active',
  '.v-overlay--active .v-card',
  '.chakra-modal__content',
  '.ReactModal__Content',
  '.swal2-popup',
  '.mantine-Modal-content',
  '.p-dialog',
  '.q-dialog',
  '.ui.modal.active',
].join(', ');

/** Open, visible dialogs, innermost match of each, in document order (the topmost is usually last). */
export function openDialogs(): Element[] {
  const found = deepQueryAll(DIALOG_SELECTOR).filter(isVisible);
  return found.filter((el) => !found.some((other) => other !== el && el.contains(other)));
}

const BUTTON_SELECTOR = 'button, input[type=submit], input[type=button], input[type=reset], [role=button]';

function inScope(scope: Element | Document, selector: string): Element[] {
  if (isA(scope, Document)) return deepQueryAll(selector, scope);
  const found = [...scope.querySelectorAll(selector)];
  if (scope.shadowRoot) found.push(...deepQueryAll(selector, scope.shadowRoot));
  return found;
}

/** Hidden from assistive technology: a library's shadow input (MUI Select's native input) or content behind a modal. */
function ariaHidden(el: Element): boolean {
  return Boolean(el.closest('[aria-hidden=true], [inert]'));
}

/** A listbox that is the popup of a combobox is part of that combobox, not a field of its own. */
function popupOfCombobox(el: Element): boolean {
  if (el.getAttribute('role') !== 'listbox' || !el.id) return false;
  return Boolean(
    el.ownerDocument.querySelector(`[aria-controls~="${CSS.escape(el.id)}"], [aria-owns~="${CSS.escape(el.id)}"]`),
  );
}

/** A styled checkbox hides its input: it counts when its label shows. */
function shown(el: Element): boolean {
  if (ariaHidden(el) || popupOfCombobox(el)) return false;
  if (isVisible(el)) return true;
  const labels = (el as HTMLInputElement).labels;
  return Boolean(labels && [...labels].some(isVisible));
}

/** The button of a text combobox that only opens its list (React Aria's "Show suggestions"): part of it. */
function helperOfCombobox(el: Element, fields: Element[]): boolean {
  if (!isListboxButton(el) || el.getAttribute('tabindex') !== '-1') return false;
  const container = el.parentElement;
  return Boolean(
    container &&
    fields.some((f) => f !== el && f.getAttribute('role') === 'combobox' && isTextControl(f) && container.contains(f)),
  );
}

export function fieldsIn(scope: Element | Document): Element[] {
  const found = inScope(scope, FIELD_SELECTOR).filter((el) => shown(el) && isWhole(el));
  // a field made of parts stands for them: a date group's segments, an ARIA radio group's radios
  const wholes = found.filter((el) => isDateGroup(el) || isAriaRadioGroup(el));
  return found.filter(
    (el) => !wholes.some((whole) => whole !== el && whole.contains(el)) && !helperOfCombobox(el, found),
  );
}

/**
 * Buttons a person presses to act. Not part of them: a select's trigger (Radix, Headless UI: a field), the
 * parts of a widget that only focus or step it (MUI Autocomplete's Open, a number field's steppers: out of the
 * tab order inside the widget), a chip's remove control, and anything aria-hidden.
 */
export function buttonsIn(scope: Element | Document): Element[] {
  const fields = fieldsIn(scope);
  const own = new Set(fields);
  const roots = fields.filter((f) => isComposite(f) || roleOf(f) === 'spinbutton').map(widgetRoot);
  const chipControls = new Set(
    fields.filter(isComposite).flatMap((f) => chipsIn(widgetRoot(f), f).map((c) => c.remove)),
  );
  return inScope(scope, BUTTON_SELECTOR).filter(
    (el) =>
      isVisible(el) &&
      !ariaHidden(el) &&
      roleOf(el) !== 'combobox' &&
      !own.has(el) &&
      !inWhole(el) &&
      !chipControls.has(el) &&
      !(el.getAttribute('tabindex') === '-1' && roots.some((root) => root.contains(el))),
  );
}

/** Inside a field made of parts (a date group's calendar button, a number field's steppers). */
function inWhole(el: Element): boolean {
  const group = el.closest('[role=group], [role=radiogroup]');
  return Boolean(group && (isDateGroup(group) || isAriaRadioGroup(group)));
}

export function surfaceTitle(el: Element): string {
  if (isA(el, HTMLFormElement)) {
    const named = el.getAttribute('aria-label') || el.getAttribute('name') || el.id;
    if (named) return named;
    const heading = el.querySelector('h1, h2, h3, h4, h5, h6, legend');
    return normalize(heading?.textContent) || 'form';
  }
  return dialogTitle(el) || 'dialog';
}

/**
 * The documents of same-origin iframes a person can use now (cross-origin ones run their own agent: reach them
 * with frameId); a frame hidden behind a modal dialog (aria-hidden, inert) or not shown is left out.
 */
export function frameDocuments(doc: Document = document): Document[] {
  const docs: Document[] = [];
  for (const frame of doc.querySelectorAll('iframe, frame')) {
    if (frame.closest('[aria-hidden=true], [inert]') || !isVisible(frame)) continue;
    try {
      const inner = (frame as HTMLIFrameElement).contentDocument;
      if (inner?.body) docs.push(inner, ...frameDocuments(inner));
    } catch {
      // cross-origin
    }
  }
  return docs;
}
