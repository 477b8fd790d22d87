import { isA } from '../dom/realm.js';

/**
 * Setting a value the way frameworks notice: React and Vue track the value property, so it is set through the
 * prototype's native setter, then `input` and `change` are dispatched.
 */
export function setNativeValue(el: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  const proto = Object.getPrototypeOf(el) as object;
  const setter = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  if (setter) setter.call(el, value);
  else el.value = value;
}

export function fireInput(el: Element, data?: string, inputType = 'insertText'): void {
  el.dispatchEvent(
    new InputEvent('input', { bubbles: true, composed: true, inputType, ...(data !== undefined ? { data } : {}) }),
  );
}

export function fireChange(el: Element): void {
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

export type TextControl = HTMLInputElement | HTMLTextAreaElement;

export function isTextControl(el: Element): el is TextControl {
  if (isA(el, HTMLTextAreaElement)) return true;
  return (
    isA(el, HTMLInputElement) &&
    !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'range', 'color'].includes(el.type)
  );
}

export function isEditable(el: Element): el is HTMLElement {
  return isA(el, HTMLElement) && el.isContentEditable;
}

/** Replaces the text of a contenteditable element, through the editing commands so editors see real input. */
export function setEditableText(el: HTMLElement, text: string): void {
  el.focus();
  const selection = getSelection();
  if (selection) {
    const range = document.createRange();
    range.selectNodeContents(el);
    selection.removeAllRanges();
    selection.addRange(range);
  }
  if (!document.execCommand('insertText', false, text)) {
    el.textContent = text;
    fireInput(el, text);
  }
}

/** An element typed into or filled: the element itself, the control of a label, or the one control inside. */
export function editableTarget(el: Element): Element {
  if (isA(el, HTMLLabelElement) && el.control) return el.control;
  if (isTextControl(el) || isEditable(el) || isA(el, HTMLSelectElement)) return el;
  const inner = el.querySelector(
    'input:not([type=hidden]), textarea, select, [contenteditable=""], [contenteditable=true]',
  );
  return inner ?? el;
}
