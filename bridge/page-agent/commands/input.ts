import { isA } from '../dom/realm.js';
import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { roleOf } from '../dom/aria.js';
import { label } from '../dom/describe.js';
import { resolveTarget } from '../dom/targets.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { chooseOptions } from '../ui/choices.js';
import { isComposite, takeExactOption } from '../ui/combobox.js';
import { commitCell, editorIn, isEditableCell, openCellEditor, setEditorSelect, setEditorText } from '../ui/grid.js';
import { kept } from '../ui/readback.js';
import { fieldValue } from '../ui/scan.js';
import { withDeparture } from '../watch/departure.js';
import { clickSequence, hoverEvents, mouse } from '../act/events.js';
import { listensForPress, watchForChange } from '../act/listeners.js';
import { aim, aimNote, type Aim } from '../act/pointer.js';
import { parseChord, press, typeText } from '../act/keys.js';
import {
  editableTarget,
  fireChange,
  fireInput,
  isEditable,
  isTextControl,
  setEditableText,
  setNativeValue,
} from '../act/values.js';

function prepare(el: Element, action: string): void {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  if (!isVisible(el)) throw new Error(`cannot ${action} ${label(el)}: it is not visible; take a page_snapshot`);
  if (isDisabled(el)) throw new Error(`cannot ${action} ${label(el)}: it is disabled`);
}

/** Where a press on `el` would land, as a note when that is not on it (for typing, choosing, checking). */
function landing(el: Element): string | undefined {
  return aimNote(aim(el));
}

function done(el: Element, extra: Record<string, Json> = {}, note?: string): Record<string, Json> {
  return { ok: true, element: label(el), ...extra, ...(note ? { note } : {}) };
}

/**
 * Presses like a person and answers with where the press landed: on something other than the target (a note), or
 * on nothing that listens for it, when the page did not change either (a note that nothing happened).
 */
async function pressed(el: Element, press: () => Aim): Promise<Json> {
  const watch = watchForChange(el.ownerDocument);
  const landed = press();
  let note = aimNote(landed);
  const heard = listensForPress(landed.on);
  const changed = await (heard ? watch.stop() : watch.changed());
  if (!note && !heard && !changed)
    note = `nothing happened: nothing on ${label(landed.on)} or around it listens for a click, and the page did not change`;
  return withDeparture(done(el, {}, note));
}

export function click(args: PageCommandArgs<'Input.click'>): Promise<Json> {
  const el = resolveTarget(args.target);
  prepare(el, 'click');
  return pressed(el, () => clickSequence(el, args.button ?? 'left'));
}

export function dblclick(args: PageCommandArgs<'Input.dblclick'>): Promise<Json> {
  const el = resolveTarget(args.target);
  prepare(el, 'double-click');
  return pressed(el, () => {
    clickSequence(el, 'left', 1);
    const landed = clickSequence(el, 'left', 2);
    mouse(landed.on, 'dblclick', 'left', 2, { clientX: landed.x, clientY: landed.y });
    return landed;
  });
}

export function hover(args: PageCommandArgs<'Input.hover'>): Json {
  const el = resolveTarget(args.target);
  prepare(el, 'hover');
  const landed = aim(el);
  hoverEvents(landed.on, { clientX: landed.x, clientY: landed.y });
  return done(
    el,
    {},
    aimNote(landed) ?? 'mouse events were dispatched; CSS :hover styles do not apply to synthetic events',
  );
}

function currentValue(el: Element): string {
  if (isA(el, HTMLInputElement) && el.type === 'password') return '•'.repeat(el.value.length);
  if (isTextControl(el)) return el.value;
  return (el as HTMLElement).innerText ?? '';
}

/**
 * A grid cell edited in place: its editor opened (double-click, Enter or F2), set (`set` answers the label it took,
 * or throws), and kept with Enter; answers what the cell shows afterwards.
 */
async function editCell(cell: Element, set: (editor: Element) => Promise<string>): Promise<Json> {
  prepare(cell, 'edit');
  const editor = await openCellEditor(cell, label(cell));
  const chosen = await set(editor);
  await commitCell(cell, editor);
  return withDeparture(done(cell, { value: chosen, shows: normalize((cell as HTMLElement).innerText) }));
}

export async function type(args: PageCommandArgs<'Input.type'>): Promise<Json> {
  const found = resolveTarget(args.target);
  if (isEditableCell(found) && !editorIn(found))
    return editCell(found, async (editor) => {
      if (!isTextControl(editor) && !isEditable(editor))
        throw new Error(`${label(found)} edits with ${label(editor)}, not a text box: use Input.select`);
      setEditorText(editor, args.text);
      return args.text;
    });
  // a select-like combobox (MUI Select, Radix, Ant) takes no text: typing into it means choosing that option
  if (isComposite(found) && !isTextControl(found)) return choose(found, [args.text]);
  const el = editableTarget(found);
  prepare(el, 'type into');
  if (!isTextControl(el) && !isEditable(el))
    throw new Error(
      `cannot type into ${label(el)}: it is not a text field or contenteditable; target the field itself`,
    );
  const note = landing(el);
  (el as HTMLElement).focus();
  if (args.clear !== false) {
    if (isTextControl(el) && el.value) {
      setNativeValue(el, '');
      fireInput(el, undefined, 'deleteContentBackward');
    } else if (isEditable(el) && el.textContent) setEditableText(el, '');
  }
  // long texts go in at once: a keystroke per character would take seconds
  if (args.text.length > 300 && isTextControl(el)) {
    setNativeValue(el, el.value + args.text);
    fireInput(el, args.text);
  } else typeText(el, args.text);
  if (isTextControl(el)) fireChange(el);
  // an Autocomplete keeps typed text only as a choice: take the option that is exactly this text
  const took = isComposite(el) && !args.submit ? await takeExactOption(el, args.text) : false;
  if (args.submit) press(el, parseChord('Enter'));
  return withDeparture(done(el, { value: currentValue(el), ...(took ? { chose: args.text } : {}) }, note));
}

export function pressKey(args: PageCommandArgs<'Input.press'>): Promise<Json> {
  const chord = parseChord(args.key);
  const el = args.target ? resolveTarget(args.target) : (document.activeElement ?? document.body);
  if (args.target) (el as HTMLElement).focus?.();
  press(el, chord);
  return withDeparture({
    ok: true,
    key: args.key,
    element: label(el),
    focused: document.activeElement ? label(document.activeElement) : null,
  });
}

export function scroll(args: PageCommandArgs<'Input.scroll'>): Json {
  const el = args.target ? resolveTarget(args.target) : undefined;
  if (el && (args.to === 'element' || (args.x === undefined && args.y === undefined && !args.to)))
    el.scrollIntoView({ block: 'center', behavior: 'instant' });
  else {
    const scroller: Element | Window = el ?? window;
    if (args.to === 'top') scroller.scrollTo({ top: 0, behavior: 'instant' });
    else if (args.to === 'bottom')
      scroller.scrollTo({ top: el ? el.scrollHeight : document.documentElement.scrollHeight, behavior: 'instant' });
    else scroller.scrollBy({ left: args.x ?? 0, top: args.y ?? 0, behavior: 'instant' });
  }
  return {
    ok: true,
    scrollX: Math.round(window.scrollX),
    scrollY: Math.round(window.scrollY),
    ...(el ? { element: label(el), elementScrollTop: Math.round(el.scrollTop) } : {}),
  };
}

/**
 * Chooses options of a composite widget and answers with what it shows once the app re-rendered. A multi-value
 * widget ends up holding exactly `values` (what it held before and is not in them is deselected).
 */
async function choose(el: Element, values: string[]): Promise<Json> {
  prepare(el, 'choose in');
  const note = landing(el);
  const chosen = await chooseOptions(el, values, label(el));
  if (isTextControl(el) && el.ownerDocument.activeElement === el) el.blur(); // Autocompletes settle on blur
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));
  const shows = fieldValue(el);
  if (!kept(chosen, shows))
    throw new Error(
      `${label(el)}: chose ${JSON.stringify(chosen)} but the app shows ${JSON.stringify(shows)}: it did not keep the choice`,
    );
  return done(el, { selected: chosen, shows }, note);
}

export async function select(args: PageCommandArgs<'Input.select'>): Promise<Json> {
  const found = resolveTarget(args.target);
  if (isEditableCell(found) && !editorIn(found))
    return editCell(found, async (editor) => {
      const [wanted = ''] = args.values;
      if (isComposite(editor)) return (await chooseOptions(editor, [wanted], label(editor)))[0] ?? wanted;
      const chosen = setEditorSelect(editor, wanted);
      if (chosen !== undefined) return chosen;
      throw new Error(
        isA(editor, HTMLSelectElement)
          ? `no option of ${label(editor)} matches ${JSON.stringify(wanted)}; its options: ${[...editor.options].map((o) => JSON.stringify(o.text.trim())).join(', ')}`
          : `${label(found)} edits with ${label(editor)}, which has no options: use Input.type`,
      );
    });
  if (isComposite(found)) return choose(found, args.values);
  const el = editableTarget(found);
  if (isComposite(el)) return choose(el, args.values);
  if (!isA(el, HTMLSelectElement))
    throw new Error(
      `${label(el)} is neither a <select> nor a combobox/listbox; click it, then click the option (or target the role=combobox element)`,
    );
  prepare(el, 'select in');
  const note = landing(el);
  const options = [...el.options];
  const wanted = args.values.map((v) => v.trim().toLowerCase());
  const matches = options.filter(
    (o) => wanted.includes(o.value.toLowerCase()) || wanted.includes(o.text.trim().toLowerCase()),
  );
  if (!matches.length)
    throw new Error(
      `no option of ${label(el)} matches ${JSON.stringify(args.values)}; its options: ${options.map((o) => JSON.stringify(o.text.trim())).join(', ')}`,
    );
  if (!el.multiple && matches.length > 1) matches.splice(1);
  if (el.multiple) for (const option of options) option.selected = matches.includes(option);
  else if (matches[0]) setNativeValue(el, matches[0].value);
  fireInput(el);
  fireChange(el);
  return done(el, { selected: matches.map((o) => o.text.trim()) }, note);
}

export function check(args: PageCommandArgs<'Input.check'>): Json {
  const found = resolveTarget(args.target);
  const el = isA(found, HTMLLabelElement) && found.control ? found.control : found;
  const wanted = args.checked ?? true;
  const state = () => (isA(el, HTMLInputElement) ? el.checked : el.getAttribute('aria-checked') === 'true');
  const role = roleOf(el);
  if (
    !(isA(el, HTMLInputElement) && (el.type === 'checkbox' || el.type === 'radio')) &&
    !['checkbox', 'switch', 'radio', 'menuitemcheckbox'].includes(role)
  )
    throw new Error(`${label(el)} is not a checkbox, radio or switch`);
  if (isA(el, HTMLInputElement) && el.type === 'radio' && !wanted)
    throw new Error(`${label(el)} is a radio button: check another option of its group instead`);
  if (state() !== wanted) {
    // a styled checkbox often hides the input behind its label: click what the person would click
    const clickable = isVisible(el) ? el : ((el as HTMLInputElement).labels?.[0] ?? el);
    prepare(clickable, 'check');
    const note = aimNote(clickSequence(clickable));
    if (note) return done(el, { checked: state() }, note);
  }
  return done(el, { checked: state() });
}
