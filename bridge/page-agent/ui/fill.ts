import { isA } from '../dom/realm.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import type { UiFillResult } from '../../protocol/snapshot.js';
import { clickSequence } from '../commands/events.js';
import { label as describe } from '../commands/input.js';
import { fireChange, fireInput, isTextControl, setEditableText, setNativeValue } from '../commands/values.js';
import { nameOf, roleOf } from '../dom/aria.js';
import { REF_PATTERN } from '../dom/refs.js';
import { selectorFor } from '../dom/selector.js';
import { findAll, resolveTarget } from '../dom/targets.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { buttonsIn, fieldLabel, fieldsIn, openDialogs, optionLabel, surfaceTitle } from './surfaces.js';

type Value = PageCommandArgs<'UI.fill'>['fields'][string];

const clean = (text: string) =>
  normalize(text)
    .replace(/[\s:*]+$/, '')
    .toLowerCase();

function findScope(dialog: string | undefined): Element | Document {
  const dialogs = openDialogs();
  if (dialog === undefined) return dialogs[dialogs.length - 1] ?? document;
  const wanted = clean(dialog);
  const byTitle =
    dialogs.find((d) => clean(surfaceTitle(d)) === wanted) ??
    dialogs.find((d) => clean(surfaceTitle(d)).includes(wanted));
  if (byTitle) return byTitle;
  try {
    const [el] = findAll(dialog);
    if (el) return el;
  } catch {
    // not a selector either
  }
  const titles = dialogs.map((d) => JSON.stringify(surfaceTitle(d))).join(', ') || 'none';
  throw new Error(
    `no open dialog matches ${JSON.stringify(dialog)}; open dialogs: ${titles}; call self_ui to see them`,
  );
}

function scopeName(scope: Element | Document): string {
  return isA(scope, Document) ? 'the page' : `dialog ${JSON.stringify(surfaceTitle(scope))}`;
}

/** The field a key names: css=/ref, else label, placeholder, name or id (exact first, then contained). */
function findField(key: string, fields: Element[]): Element | undefined {
  if (key.startsWith('css=') || key.startsWith('text=') || REF_PATTERN.test(key)) return findAll(key)[0];
  const wanted = clean(key);
  const keys = (el: Element) =>
    [fieldLabel(el), el.getAttribute('placeholder'), el.getAttribute('name'), el.id, el.getAttribute('aria-label')]
      .filter((k): k is string => Boolean(k))
      .map(clean);
  return (
    fields.find((el) => keys(el).includes(wanted)) ??
    fields.find((el) => isA(el, HTMLInputElement) && el.type === 'radio' && clean(optionLabel(el)) === wanted) ??
    fields.find((el) => keys(el).some((k) => k.includes(wanted)))
  );
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

/** Sets one field the way a person would end up with it, through the events frameworks listen to. */
function setField(el: Element, value: Value, fields: Element[]): string | boolean | string[] {
  if (isDisabled(el)) throw new Error(`${describe(el)} is disabled`);
  if (isA(el, HTMLInputElement) && el.type === 'checkbox') {
    if (el.checked !== truthy(value)) clickSequence(clickable(el));
    return el.checked;
  }
  if (isA(el, HTMLInputElement) && el.type === 'radio') {
    const group = fields.filter((f) => isA(f, HTMLInputElement) && f.type === 'radio' && f.name === el.name);
    const wanted = typeof value === 'boolean' ? null : clean(String(value));
    const option =
      wanted === null
        ? el
        : group.find((f) => clean(optionLabel(f)) === wanted || clean((f as HTMLInputElement).value) === wanted);
    if (!option)
      throw new Error(
        `no option ${JSON.stringify(value)} in radio group ${JSON.stringify(fieldLabel(el))}; options: ${group.map((f) => JSON.stringify(optionLabel(f))).join(', ')}`,
      );
    if (!(option as HTMLInputElement).checked) clickSequence(clickable(option));
    return optionLabel(option);
  }
  if (isA(el, HTMLSelectElement)) {
    const wanted = (Array.isArray(value) ? value : [String(value)]).map(clean);
    const matches = [...el.options].filter((o) => wanted.includes(clean(o.value)) || wanted.includes(clean(o.text)));
    if (!matches.length)
      throw new Error(
        `no option ${JSON.stringify(value)} in ${describe(el)}; options: ${[...el.options].map((o) => JSON.stringify(normalize(o.text))).join(', ')}`,
      );
    if (el.multiple) for (const o of el.options) o.selected = matches.includes(o);
    else if (matches[0]) setNativeValue(el, matches[0].value);
    fireInput(el);
    fireChange(el);
    return el.multiple ? matches.map((o) => normalize(o.text)) : normalize(matches[0]?.text ?? '');
  }
  if (isTextControl(el)) {
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    el.focus();
    setNativeValue(el, text);
    fireInput(el, text);
    fireChange(el);
    el.blur();
    return el.type === 'password' ? '•'.repeat(Math.min(8, text.length)) : el.value;
  }
  if (isA(el, HTMLElement) && el.isContentEditable) {
    setEditableText(el, String(value));
    return normalize(el.innerText);
  }
  const role = roleOf(el);
  if (role === 'checkbox' || role === 'switch' || role === 'radio') {
    if ((el.getAttribute('aria-checked') === 'true') !== truthy(value)) clickSequence(el);
    return el.getAttribute('aria-checked') === 'true';
  }
  throw new Error(`${describe(el)} is not a field form_fill can set; use page_exec with Input.click or Input.type`);
}

function findButton(wanted: string, scope: Element | Document): Element {
  const buttons = buttonsIn(scope);
  const text = clean(wanted);
  const name = (el: Element) => clean(nameOf(el, roleOf(el)) || el.getAttribute('value') || '');
  const found =
    buttons.find((b) => name(b) === text) ??
    buttons.find((b) => name(b).includes(text)) ??
    (wanted.startsWith('css=') || REF_PATTERN.test(wanted) ? resolveTarget(wanted) : undefined);
  if (!found)
    throw new Error(
      `the fields were filled, but no button ${JSON.stringify(wanted)} is in ${scopeName(scope)}; buttons there: ${buttons.map((b) => JSON.stringify(nameOf(b, roleOf(b)))).join(', ') || 'none'}`,
    );
  return found;
}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)));

/** A submit often closes its dialog only after a request: wait a little for that before reporting it open. */
async function stillOpenAfterSubmit(dialog: Element, settleMs = 1500): Promise<boolean> {
  const until = Date.now() + settleMs;
  do {
    await frame();
    if (!dialog.isConnected || !isVisible(dialog)) return false;
  } while (Date.now() < until);
  return true;
}

/** form_fill: every field is found before any is set, so a typo changes nothing. */
export async function fill(args: PageCommandArgs<'UI.fill'>): Promise<UiFillResult> {
  const scope = findScope(args.dialog);
  const fields = fieldsIn(scope);
  const plan: Array<[string, Element, Value]> = [];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(args.fields)) {
    const el = findField(key, fields);
    if (el) plan.push([key, el, value]);
    else missing.push(key);
  }
  if (missing.length) {
    const known = [...new Set(fields.map(fieldLabel).filter(Boolean))].map((l) => JSON.stringify(l)).join(', ');
    throw new Error(
      `no field matches ${missing.map((m) => JSON.stringify(m)).join(', ')} in ${scopeName(scope)}; nothing was filled. Fields there: ${known || 'none'} (call self_ui for selectors)`,
    );
  }
  const filled: UiFillResult['filled'] = [];
  for (const [key, el, value] of plan) {
    filled.push({ field: key, selector: selectorFor(el), value: setField(el, value, fields) });
    await frame();
  }
  const result: UiFillResult = { scope: scopeName(scope), filled };
  if (args.button) {
    const button = findButton(args.button, scope);
    if (isDisabled(button))
      throw new Error(`the fields were filled, but ${describe(button)} is disabled (a required field may be missing)`);
    clickSequence(button);
    result.clicked = describe(button);
    if (isA(scope, Element)) result.dialogOpen = await stillOpenAfterSubmit(scope);
  }
  return result;
}
