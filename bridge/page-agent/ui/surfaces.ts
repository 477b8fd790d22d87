import { isA } from '../dom/realm.js';
import { dialogTitle, labelText, roleOf } from '../dom/aria.js';
import { deepQueryAll } from '../dom/deep.js';
import { isVisible, normalize } from '../dom/visible.js';

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

const FIELD_SELECTOR = [
  'input:not([type=hidden]):not([type=submit]):not([type=button]):not([type=reset]):not([type=image])',
  'select',
  'textarea',
  '[contenteditable=""]',
  '[contenteditable=true]',
  '[role=textbox]:not(input):not(textarea)',
  '[role=checkbox]:not(input)',
  '[role=switch]:not(input)',
  '[role=radio]:not(input)',
  // composite widgets: MUI/Radix/Ant selects are a role=combobox element, lists a role=listbox, a Headless UI
  // Listbox a button that pops up a listbox
  '[role=combobox]:not(input)',
  'button[aria-haspopup=listbox]:not([role])',
  '[role=button][aria-haspopup=listbox]',
  '[role=listbox]:not(select)',
].join(', ');

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

export function fieldsIn(scope: Element | Document): Element[] {
  return inScope(scope, FIELD_SELECTOR).filter(shown);
}

/** Buttons a person presses to act; a select's trigger (Radix, Headless UI) is a field, not one of them. */
export function buttonsIn(scope: Element | Document): Element[] {
  return inScope(scope, BUTTON_SELECTOR).filter((el) => isVisible(el) && roleOf(el) !== 'combobox');
}

/** The text a person reads beside a field: label, aria-label, placeholder, legend of its group, name. */
export function fieldLabel(el: Element): string {
  // a radio button's own label names one option; the group is named by its legend or radiogroup
  if (isA(el, HTMLInputElement) && el.type === 'radio') {
    const group = el.closest('[role=radiogroup]');
    const groupName = group ? labelText(group) : '';
    if (groupName) return groupName;
    const legend = el.closest('fieldset')?.querySelector('legend');
    if (legend) return normalize(legend.textContent);
    const item = formItemLabel(el);
    if (item) return item;
    if (el.name) return el.name;
  }
  const label = labelText(el);
  if (label) return label;
  const item = formItemLabel(el);
  if (item) return item;
  const placeholder = el.getAttribute('placeholder');
  if (placeholder) return normalize(placeholder);
  const title = el.getAttribute('title');
  if (title) return normalize(title);
  const previous = el.previousElementSibling;
  if (previous && !previous.matches(FIELD_SELECTOR) && normalize(previous.textContent).length < 60)
    return normalize(previous.textContent);
  return el.getAttribute('name') ?? el.id ?? '';
}

/** Form items of component libraries (MUI, Ant Design) put the label beside a wrapper, not on the control. */
function formItemLabel(el: Element): string {
  const item = el.closest('.MuiFormControl-root, .ant-form-item, [data-slot=form-item]');
  const label = item?.querySelector('.MuiFormLabel-root, .ant-form-item-label, label');
  if (!label || label.contains(el)) return '';
  return normalize(label.textContent);
}

/** The label of one radio option (its own label), vs fieldLabel which names the whole group. */
export function optionLabel(el: Element): string {
  return labelText(el) || (el as HTMLInputElement).value || '';
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
