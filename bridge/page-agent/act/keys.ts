import { isA } from '../dom/realm.js';
import { clickSequence } from './events.js';
import { fireInput, isEditable, isTextControl, setNativeValue } from './values.js';

/**
 * Keyboard input. Synthetic key events do not make the browser act (no text, no submit), so the usual default
 * actions are carried out here when no handler cancelled the keydown: text insertion, Backspace, Enter
 * (implicit form submission), Tab, Space, Escape on a modal dialog.
 */
export interface KeyChord {
  key: string;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  metaKey: boolean;
}

const ALIASES: Record<string, string> = {
  esc: 'Escape',
  return: 'Enter',
  space: ' ',
  del: 'Delete',
  up: 'ArrowUp',
  down: 'ArrowDown',
  left: 'ArrowLeft',
  right: 'ArrowRight',
};

export function parseChord(text: string): KeyChord {
  const parts = text === '+' ? ['+'] : text.split('+').filter(Boolean);
  const chord: KeyChord = { key: '', ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };
  for (const part of parts) {
    const lower = part.toLowerCase();
    if (lower === 'control' || lower === 'ctrl') chord.ctrlKey = true;
    else if (lower === 'shift') chord.shiftKey = true;
    else if (lower === 'alt' || lower === 'option') chord.altKey = true;
    else if (lower === 'meta' || lower === 'cmd' || lower === 'command') chord.metaKey = true;
    else chord.key = ALIASES[lower] ?? (part.length === 1 ? part : part[0]?.toUpperCase() + part.slice(1));
  }
  if (!chord.key) throw new Error(`key "${text}" names only modifiers; give a key such as "Enter" or "Control+a"`);
  return chord;
}

function codeOf(key: string): string {
  if (/^[a-z]$/i.test(key)) return `Key${key.toUpperCase()}`;
  if (/^[0-9]$/.test(key)) return `Digit${key}`;
  if (key === ' ') return 'Space';
  return key;
}

function keyEvent(el: Element, type: string, chord: KeyChord): boolean {
  return el.dispatchEvent(
    new KeyboardEvent(type, {
      ...chord,
      code: codeOf(chord.key),
      bubbles: true,
      cancelable: true,
      composed: true,
      view: window,
    }),
  );
}

function insertText(el: Element, text: string): void {
  if (isTextControl(el)) {
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? el.value.length;
    const before = el.value;
    el.dispatchEvent(
      new InputEvent('beforeinput', { bubbles: true, cancelable: true, inputType: 'insertText', data: text }),
    );
    setNativeValue(el, before.slice(0, start) + text + before.slice(end));
    try {
      el.setSelectionRange(start + text.length, start + text.length);
    } catch {
      // email and number inputs have no selection API
    }
    fireInput(el, text);
  } else if (isEditable(el)) {
    document.execCommand('insertText', false, text);
  }
}

function deleteBackward(el: Element): void {
  if (isTextControl(el)) {
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? el.value.length;
    const from = start === end ? Math.max(0, start - 1) : start;
    setNativeValue(el, el.value.slice(0, from) + el.value.slice(end));
    fireInput(el, undefined, 'deleteContentBackward');
  } else if (isEditable(el)) document.execCommand('delete');
}

function tabbables(): HTMLElement[] {
  return [
    ...document.querySelectorAll<HTMLElement>(
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable=true]',
    ),
  ].filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
}

function submitImplicitly(el: Element): void {
  const form = (el as HTMLInputElement).form;
  if (!form) return;
  const button = form.querySelector<HTMLElement>('button:not([type]), button[type=submit], input[type=submit]');
  if (button) clickSequence(button);
  else form.requestSubmit();
}

function defaultAction(el: Element, chord: KeyChord): void {
  const { key } = chord;
  const modified = chord.ctrlKey || chord.metaKey || chord.altKey;
  if (modified) {
    if (key.toLowerCase() === 'a' && isTextControl(el)) el.select();
    return;
  }
  if (key === 'Enter') {
    if (isA(el, HTMLTextAreaElement) || isEditable(el)) insertText(el, '\n');
    else if (isA(el, HTMLInputElement)) submitImplicitly(el);
    else if (isA(el, HTMLButtonElement) || isA(el, HTMLAnchorElement)) clickSequence(el);
  } else if (key === ' ' && (isA(el, HTMLButtonElement) || (isA(el, HTMLInputElement) && !isTextControl(el)))) {
    clickSequence(el);
  } else if (key === 'Backspace') deleteBackward(el);
  else if (key === 'Tab') {
    const list = tabbables();
    const index = list.indexOf(el as HTMLElement);
    const next = list[(index + (chord.shiftKey ? -1 : 1) + list.length) % list.length];
    next?.focus();
  } else if (key === 'Escape') {
    const dialog = [...document.querySelectorAll('dialog[open]')].pop() as HTMLDialogElement | undefined;
    if (dialog && dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) dialog.close();
  } else if (key.length === 1) insertText(el, chord.shiftKey ? key.toUpperCase() : key);
}

/** keydown and keyup only: for widgets that act on a key, where the browser's own action (Enter submitting the
 * form) must not happen. */
export function keyOnly(el: Element, chord: KeyChord): void {
  keyEvent(el, 'keydown', chord);
  keyEvent(el, 'keyup', chord);
}

/** keydown → (default action) → keyup on `el`. */
export function press(el: Element, chord: KeyChord): void {
  const proceed = keyEvent(el, 'keydown', chord);
  if (proceed && chord.key.length === 1 && !chord.ctrlKey && !chord.metaKey) keyEvent(el, 'keypress', chord);
  if (proceed) defaultAction(el, chord);
  keyEvent(el, 'keyup', chord);
}

/** Types text one character at a time, each with its key events. */
export function typeText(el: Element, text: string): void {
  for (const char of text) {
    const chord: KeyChord = {
      key: char === '\n' ? 'Enter' : char,
      ctrlKey: false,
      shiftKey: false,
      altKey: false,
      metaKey: false,
    };
    press(el, chord);
  }
}
