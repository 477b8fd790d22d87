import { isA } from '../dom/realm.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import type { UiFillResult } from '../../protocol/snapshot.js';
import { clickSequence } from '../commands/events.js';
import { label as describe } from '../commands/input.js';
import { fireChange, fireInput, isTextControl, setEditableText, setNativeValue } from '../commands/values.js';
import { nameOf, roleOf } from '../dom/aria.js';
import { isRef } from '../dom/refs.js';
import { stableSelectorFor } from '../dom/selector.js';
import { findAll, resolveTarget } from '../dom/targets.js';
import { isDisabled, isVisible, normalize } from '../dom/visible.js';
import { chooseOptions, isMultiChoice } from './choices.js';
import { chooseOption, isComposite, OptionError } from './combobox.js';
import { clean, kept, type Shown } from './readback.js';
import { fieldValue } from './scan.js';
import { buttonsIn, frameDocuments, fieldLabel, fieldsIn, openDialogs, optionLabel, surfaceTitle } from './surfaces.js';

type Value = PageCommandArgs<'UI.fill'>['fields'][string];

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
  if (isA(scope, Document)) return scope === document ? 'the page' : `the frame ${scope.location.pathname}`;
  return `dialog ${JSON.stringify(surfaceTitle(scope))}`;
}

/** The field a key names: css=/ref, else label, placeholder, name or id (exact first, then contained). */
function findField(key: string, fields: Element[]): Element | undefined {
  if (key.startsWith('css=') || key.startsWith('text=') || isRef(key)) return findAll(key)[0];
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

/** A field the widget did not take (no such option, it would not open): recorded, and the fill goes on. */
class NotTaken extends Error {}

/**
 * Sets one field the way a person would end up with it, through the events frameworks listen to. Returns what
 * the field should show afterwards; the caller reads back what it does show once the app has re-rendered.
 */
async function setField(el: Element, value: Value, fields: Element[]): Promise<Shown> {
  if (isDisabled(el)) throw new NotTaken(`${describe(el)} is disabled`);
  if (isComposite(el)) {
    // an array, or any value for a widget that holds several: the whole selection, replacing what it held
    if (Array.isArray(value) || isMultiChoice(el)) {
      try {
        return await chooseOptions(el, Array.isArray(value) ? value : [String(value)], describe(el));
      } catch (error) {
        throw new NotTaken((error as Error).message);
      }
    }
    try {
      return await chooseOption(el, String(value), describe(el));
    } catch (error) {
      // a text combobox may take free text (freeSolo, datalist): the read-back decides
      if (!(error instanceof OptionError) || !isTextControl(el)) throw new NotTaken((error as Error).message);
      return String(value);
    }
  }
  if (isA(el, HTMLInputElement) && el.type === 'checkbox') {
    if (el.checked !== truthy(value)) clickSequence(clickable(el));
    return truthy(value);
  }
  if (isA(el, HTMLInputElement) && el.type === 'radio') {
    const group = fields.filter((f) => isA(f, HTMLInputElement) && f.type === 'radio' && f.name === el.name);
    const wanted = typeof value === 'boolean' ? null : clean(String(value));
    const option =
      wanted === null
        ? el
        : group.find((f) => clean(optionLabel(f)) === wanted || clean((f as HTMLInputElement).value) === wanted);
    if (!option)
      throw new NotTaken(
        `no option ${JSON.stringify(value)} in radio group ${JSON.stringify(fieldLabel(el))}; options: ${group.map((f) => JSON.stringify(optionLabel(f))).join(', ')}`,
      );
    if (!(option as HTMLInputElement).checked) clickSequence(clickable(option));
    return optionLabel(option);
  }
  if (isA(el, HTMLSelectElement)) {
    const wanted = (Array.isArray(value) ? value : [String(value)]).map(clean);
    const matches = [...el.options].filter((o) => wanted.includes(clean(o.value)) || wanted.includes(clean(o.text)));
    if (!matches.length)
      throw new NotTaken(
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
    return text;
  }
  if (isA(el, HTMLElement) && el.isContentEditable) {
    setEditableText(el, String(value));
    return String(value);
  }
  const role = roleOf(el);
  if (role === 'checkbox' || role === 'switch' || role === 'radio') {
    if ((el.getAttribute('aria-checked') === 'true') !== truthy(value)) clickSequence(el);
    return truthy(value);
  }
  throw new NotTaken(`${describe(el)} is not a field form_fill can set; use page_exec with Input.click or Input.type`);
}

/** A password is never echoed back. */
function masked(el: Element, value: Shown): Shown {
  return isA(el, HTMLInputElement) && el.type === 'password' && typeof value === 'string'
    ? '•'.repeat(Math.min(8, value.length))
    : value;
}

function findButton(wanted: string, scope: Element | Document): Element {
  const buttons = buttonsIn(scope);
  const text = clean(wanted);
  const name = (el: Element) => clean(nameOf(el, roleOf(el)) || el.getAttribute('value') || '');
  const found =
    buttons.find((b) => name(b) === text) ??
    buttons.find((b) => name(b).includes(text)) ??
    (wanted.startsWith('css=') || isRef(wanted) ? resolveTarget(wanted) : undefined);
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

/** Where the keys are: the chosen scope, else (no dialog asked for) a same-origin iframe that has them all. */
function locate(args: PageCommandArgs<'UI.fill'>): {
  scope: Element | Document;
  plan: Array<[string, Element, Value]>;
} {
  const scope = findScope(args.dialog);
  const attempt = (where: Element | Document) => {
    const fields = fieldsIn(where);
    const plan: Array<[string, Element, Value]> = [];
    const missing: string[] = [];
    for (const [key, value] of Object.entries(args.fields)) {
      const el = findField(key, fields);
      if (el) plan.push([key, el, value]);
      else missing.push(key);
    }
    return { plan, missing, fields };
  };
  const first = attempt(scope);
  if (!first.missing.length) return { scope, plan: first.plan };
  if (args.dialog === undefined && isA(scope, Document))
    for (const doc of frameDocuments(document)) {
      const inFrame = attempt(doc);
      if (!inFrame.missing.length) return { scope: doc, plan: inFrame.plan };
    }
  const known = [...new Set(first.fields.map(fieldLabel).filter(Boolean))].map((l) => JSON.stringify(l)).join(', ');
  throw new Error(
    `no field matches ${first.missing.map((m) => JSON.stringify(m)).join(', ')} in ${scopeName(scope)}; nothing was filled. Fields there: ${known || 'none'} (call self_ui for selectors)`,
  );
}

/**
 * form_fill: every field is found before any is set, so a typo changes nothing. After setting them all, focus
 * leaves the last field and the app re-renders; then each field is read back, and one whose value the app did
 * not keep is reported under notFilled with what it shows instead (and the button is not pressed).
 */
export async function fill(args: PageCommandArgs<'UI.fill'>): Promise<UiFillResult> {
  const { scope, plan } = locate(args);
  const fields = fieldsIn(scope);
  const expected: Array<{ key: string; el: Element; want: Shown; value: Value }> = [];
  const notFilled: NonNullable<UiFillResult['notFilled']> = [];
  for (const [key, el, value] of plan) {
    try {
      expected.push({ key, el, value, want: await setField(el, value, fields) });
    } catch (error) {
      if (!(error instanceof NotTaken)) throw error;
      notFilled.push({ field: key, wanted: value, shows: fieldValue(el), reason: error.message });
    }
    await frame();
  }
  // blur: widgets such as MUI Autocomplete settle their value when focus leaves them
  const active = (isA(scope, Document) ? scope : scope.ownerDocument).activeElement;
  if (isA(active, HTMLElement) && plan.some(([, el]) => el === active || el.contains(active))) active.blur();
  await frame();
  await frame();
  const filled: UiFillResult['filled'] = [];
  for (const { key, el, want, value } of expected) {
    // a re-render may have replaced the element: read the field the key names now
    const now = el.isConnected ? el : (findField(key, fieldsIn(scope)) ?? el);
    const shows = fieldValue(now);
    if (kept(want, shows)) {
      const selector = stableSelectorFor(now);
      filled.push({ field: key, ...(selector ? { selector } : {}), value: masked(now, shows) });
    } else
      notFilled.push({
        field: key,
        wanted: masked(now, typeof value === 'number' ? String(value) : value),
        shows: masked(now, shows),
        reason: 'the app did not keep the value',
      });
  }
  const result: UiFillResult = { scope: scopeName(scope), filled };
  if (notFilled.length) {
    result.notFilled = notFilled;
    if (args.button) result.note = `${JSON.stringify(args.button)} was not pressed because some fields were not filled`;
    return result;
  }
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
