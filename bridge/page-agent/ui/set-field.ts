import { isA } from '../dom/realm.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { clickSequence } from '../act/events.js';
import { label as describe } from '../dom/describe.js';
import { fireChange, fireInput, isTextControl, setEditableText, setNativeValue } from '../act/values.js';
import { roleOf } from '../dom/aria.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { chooseOptions, isMultiChoice } from './choices.js';
import { isComposite, OptionError } from './combobox.js';
import { DateFieldError, isTimeGroup, setDate, setTime } from './date-field.js';
import { isAriaRadioGroup, isKeySpinbutton, isSlider } from './kinds.js';
import {
  commitCell,
  editorIn,
  GridError,
  isEditableCell,
  openCellEditor,
  setEditorSelect,
  setEditorText,
} from './grid.js';
import { keyOnly, parseChord } from '../act/keys.js';
import { chooseRadio, radioOptions } from './radios.js';
import { clean, type Compare, type Shown } from './readback.js';
import { setSlider, SliderError } from './slider.js';
import { fieldLabel, takesDate } from './field.js';
import { optionLabel } from './labels.js';

export type Value = PageCommandArgs<'UI.fill'>['fields'][string];

/**
 * A field the widget did not take (no such option, it would not open): recorded with what it offers, and the fill
 * goes on.
 */
export class NotTaken extends Error {
  constructor(
    message: string,
    readonly options?: string[],
  ) {
    super(message);
  }
}

/** A NotTaken from an error of a widget, keeping the options an OptionError names. */
function notTaken(error: unknown): NotTaken {
  return new NotTaken((error as Error).message, error instanceof OptionError ? error.options : undefined);
}

/** What a field should show afterwards, and how to compare what it does show. */
export interface Wanted {
  want: Shown;
  how: Compare;
  /** why, if the app does not keep it (free text typed into a combobox that did not offer it) */
  unkept?: string;
}

function truthy(value: Value): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  return ['true', 'on', 'yes', '1', 'checked'].includes(value.trim().toLowerCase());
}

function clickable(el: Element): Element {
  return isVisible(el) ? el : ((el as HTMLInputElement).labels?.[0] ?? el);
}

const one = (value: Value): string => (Array.isArray(value) ? value.join(', ') : String(value));

function number(value: Value, what: string): number {
  const n = typeof value === 'number' ? value : Number(one(value).trim());
  if (!Number.isFinite(n)) throw new NotTaken(`${what} takes a number; got ${JSON.stringify(value)}`);
  return n;
}

/**
 * A grid cell: the control it always holds is set as a field; else its editor is opened, set without letting focus
 * leave it, and kept with Enter. What the cell shows afterwards is compared with the value.
 */
async function editCell(cell: Element, value: Value, fields: Element[], what: string): Promise<Wanted> {
  const held = editorIn(cell);
  if (held) return setField(held, value, fields);
  let editor: Element;
  try {
    editor = await openCellEditor(cell, what);
  } catch (error) {
    if (error instanceof GridError) throw new NotTaken(error.message);
    throw error;
  }
  const text = one(value);
  let want: Shown = text;
  if (isA(editor, HTMLSelectElement)) {
    const chosen = setEditorSelect(editor, text);
    if (chosen === undefined) {
      const options = [...editor.options].map((o) => normalize(o.text));
      keyOnly(editor, parseChord('Escape'));
      throw new NotTaken(
        `no option ${JSON.stringify(value)} in ${what}; options: ${options.map((o) => JSON.stringify(o)).join(', ')}`,
        options,
      );
    }
    want = chosen;
  } else if (isComposite(editor)) {
    try {
      want = (await chooseOptions(editor, [text], what))[0] ?? text;
    } catch (error) {
      throw notTaken(error);
    }
  } else if (isTextControl(editor) || (isA(editor, HTMLElement) && editor.isContentEditable))
    setEditorText(editor, text);
  else return setField(editor, value, fields);
  await commitCell(cell, editor);
  const numeric = typeof value === 'number' || (isA(editor, HTMLInputElement) && editor.type === 'number');
  return { want, how: numeric ? 'number' : 'text' };
}

async function composite(el: Element, value: Value, what: string): Promise<Wanted> {
  // an array, or any value for a widget that holds several: the whole selection, replacing what it held
  if (Array.isArray(value) || isMultiChoice(el)) {
    try {
      return { want: await chooseOptions(el, Array.isArray(value) ? value : [String(value)], what), how: 'text' };
    } catch (error) {
      throw notTaken(error);
    }
  }
  try {
    return { want: (await chooseOptions(el, [String(value)], what))[0] ?? String(value), how: 'text' };
  } catch (error) {
    // a text combobox may take free text (freeSolo, an Autocomplete's suggestions): type it, the read-back decides
    if (!(error instanceof OptionError) || !isTextControl(el) || el.readOnly) throw notTaken(error);
    el.focus();
    setNativeValue(el, String(value));
    fireInput(el, String(value));
    fireChange(el);
    return { want: String(value), how: 'text', unkept: error.message };
  }
}

function radio(el: HTMLInputElement, value: Value, fields: Element[]): Wanted {
  const group = fields.filter((f) => isA(f, HTMLInputElement) && f.type === 'radio' && f.name === el.name);
  const wanted = typeof value === 'boolean' ? null : clean(String(value));
  const option =
    wanted === null
      ? el
      : group.find((f) => clean(optionLabel(f)) === wanted || clean((f as HTMLInputElement).value) === wanted);
  if (!option) {
    const options = group.map(optionLabel);
    throw new NotTaken(
      `no option ${JSON.stringify(value)} in radio group ${JSON.stringify(fieldLabel(el))}; options: ${options.map((o) => JSON.stringify(o)).join(', ')}`,
      options,
    );
  }
  if (!(option as HTMLInputElement).checked) clickSequence(clickable(option));
  return { want: optionLabel(option), how: 'text' };
}

function select(el: HTMLSelectElement, value: Value): Wanted {
  const wanted = (Array.isArray(value) ? value : [String(value)]).map(clean);
  const matches = [...el.options].filter((o) => wanted.includes(clean(o.value)) || wanted.includes(clean(o.text)));
  if (!matches.length) {
    const options = [...el.options].map((o) => normalize(o.text));
    throw new NotTaken(
      `no option ${JSON.stringify(value)} in ${describe(el)}; options: ${options.map((o) => JSON.stringify(o)).join(', ')}`,
      options,
    );
  }
  if (el.multiple) for (const o of el.options) o.selected = matches.includes(o);
  else if (matches[0]) setNativeValue(el, matches[0].value);
  fireInput(el);
  fireChange(el);
  return { want: el.multiple ? matches.map((o) => normalize(o.text)) : normalize(matches[0]?.text ?? ''), how: 'text' };
}

/**
 * Sets one field the way a person would end up with it, through the events frameworks listen to: by its
 * pattern (a date field, a slider, a combobox, a radio group…), whatever library drew it. Returns what the field
 * should show afterwards; the caller reads back what it does show once the app has re-rendered.
 */
export async function setField(el: Element, value: Value, fields: Element[]): Promise<Wanted> {
  const what = describe(el);
  if (isDisabled(el)) throw new NotTaken(`${what} is disabled`);
  if (isEditableCell(el)) return editCell(el, value, fields, what);
  try {
    // a time field of segments (hours, minutes): before the dates, as it is a group of segments too
    if (typeof value !== 'boolean' && !Array.isArray(value) && isTimeGroup(el))
      return { want: await setTime(el, String(value), what), how: 'text' };
    if (typeof value !== 'boolean' && !Array.isArray(value) && takesDate(el))
      return { want: await setDate(el, String(value), what), how: 'date' };
    if (isSlider(el) || isKeySpinbutton(el)) {
      const n = number(value, what);
      await setSlider(el, n, what);
      return { want: String(n), how: 'number' };
    }
  } catch (error) {
    if (error instanceof DateFieldError || error instanceof SliderError) throw new NotTaken(error.message);
    throw error;
  }
  if (isAriaRadioGroup(el)) {
    const chosen = chooseRadio(el, one(value));
    if (chosen === undefined) {
      const options = radioOptions(el);
      throw new NotTaken(
        `no option ${JSON.stringify(value)} in radio group ${JSON.stringify(fieldLabel(el))}; options: ${options.map((o) => JSON.stringify(o)).join(', ')}`,
        options,
      );
    }
    return { want: chosen, how: 'text' };
  }
  if (isComposite(el)) return composite(el, value, what);
  if (isA(el, HTMLInputElement) && el.type === 'checkbox') {
    if (el.checked !== truthy(value)) clickSequence(clickable(el));
    return { want: truthy(value), how: 'text' };
  }
  if (isA(el, HTMLInputElement) && el.type === 'radio') return radio(el, value, fields);
  if (isA(el, HTMLSelectElement)) return select(el, value);
  if (isTextControl(el)) {
    const text = one(value);
    el.focus();
    setNativeValue(el, text);
    fireInput(el, text);
    fireChange(el);
    el.blur();
    const numeric =
      roleOf(el) === 'spinbutton' || el.type === 'number' || el.inputMode === 'decimal' || el.inputMode === 'numeric';
    return { want: text, how: numeric && Number.isFinite(Number(text)) ? 'number' : 'text' };
  }
  if (isA(el, HTMLElement) && el.isContentEditable) {
    setEditableText(el, String(value));
    return { want: String(value), how: 'text' };
  }
  const role = roleOf(el);
  if (role === 'checkbox' || role === 'switch' || role === 'radio') {
    if ((el.getAttribute('aria-checked') === 'true') !== truthy(value)) clickSequence(el);
    return { want: truthy(value), how: 'text' };
  }
  throw new NotTaken(`${what} is not a field form_fill can set; use page_exec with Input.click or Input.type`);
}
