import { isA } from '../dom/realm.js';
import { clickSequence, mouse } from '../act/events.js';
import { keyOnly, parseChord } from '../act/keys.js';
import { fireChange, fireInput, isEditable, isTextControl, setEditableText, setNativeValue } from '../act/values.js';
import { isGridCell, roleOf } from '../dom/aria.js';
import { isVisible } from '../dom/visible.js';
import { FIELD_SELECTOR, isWhole } from './field.js';

/**
 * Cells of a data grid edited in place (role=grid / treegrid, the ARIA data grid pattern that grid libraries
 * follow): a person double-clicks the cell (or presses Enter on it), an editor opens in it — a text box, a select,
 * a list — they set it, and Enter keeps the value (a click elsewhere or Escape often throws it away). The cell then
 * shows the value as text again.
 */
export class GridError extends Error {}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 16)));

/** A cell of an interactive grid that may be edited (not marked read-only). */
export function isEditableCell(el: Element): boolean {
  return isGridCell(el) && roleOf(el) === 'gridcell' && el.getAttribute('aria-readonly') !== 'true';
}

/** A field inside the cell now (its editor, or a control the cell always holds). */
export function editorIn(cell: Element): Element | undefined {
  return [...cell.querySelectorAll(FIELD_SELECTOR)].find((f) => isVisible(f) && isWhole(f));
}

/** An editor some grids open beside the cell (a popup): the field that took focus when editing started. */
function popupEditor(cell: Element): Element | undefined {
  const active = cell.ownerDocument.activeElement;
  if (!active || active === cell || cell.contains(active) || active === cell.ownerDocument.body) return undefined;
  return active.matches(FIELD_SELECTOR) && isVisible(active) ? active : undefined;
}

async function waitEditor(cell: Element, ms: number): Promise<Element | undefined> {
  const until = Date.now() + ms;
  do {
    await frame();
    const editor = editorIn(cell) ?? popupEditor(cell);
    if (editor) return editor;
  } while (Date.now() < until);
  return undefined;
}

/** Opens the editor of `cell` as a person does: a double-click, else Enter, else F2. */
export async function openCellEditor(cell: Element, what: string): Promise<Element> {
  const inside = editorIn(cell);
  if (inside) return inside;
  clickSequence(cell, 'left', 1);
  const landed = clickSequence(cell, 'left', 2);
  mouse(landed.on, 'dblclick', 'left', 2, { clientX: landed.x, clientY: landed.y });
  let editor = await waitEditor(cell, 500);
  for (const key of ['Enter', 'F2']) {
    if (editor) break;
    (cell as HTMLElement).focus?.();
    keyOnly(cell, parseChord(key));
    editor = await waitEditor(cell, 400);
  }
  if (!editor)
    throw new GridError(`${what} opened no editor when double-clicked or on Enter or F2: it is not editable`);
  return editor;
}

/** Types `text` into a cell's text editor without letting focus leave it (which would throw the edit away). */
export function setEditorText(editor: Element, text: string): void {
  (editor as HTMLElement).focus?.();
  if (isTextControl(editor)) {
    setNativeValue(editor, text);
    fireInput(editor, text);
  } else if (isEditable(editor)) setEditableText(editor, text);
}

/** A native select editor: the option by its label or value. Returns its label, or undefined when it has none. */
export function setEditorSelect(editor: Element, wanted: string): string | undefined {
  if (!isA(editor, HTMLSelectElement)) return undefined;
  const w = wanted.trim().toLowerCase();
  const option = [...editor.options].find((o) => o.text.trim().toLowerCase() === w || o.value.toLowerCase() === w);
  if (!option) return undefined;
  setNativeValue(editor, option.value);
  fireInput(editor);
  fireChange(editor);
  return option.text.trim();
}

/** Keeps the edit: Enter in the editor, then a moment for the cell to show its value again. */
export async function commitCell(cell: Element, editor: Element): Promise<void> {
  if (editor.isConnected) {
    if (isTextControl(editor)) fireChange(editor);
    keyOnly(editor, parseChord('Enter'));
  }
  for (let waited = 0; waited < 600 && editorIn(cell) && cell.isConnected; waited += 16) await frame();
}
