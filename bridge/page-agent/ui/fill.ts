import { isA } from '../dom/realm.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import type { UiFillResult } from '../../protocol/snapshot.js';
import { clickSequence } from '../act/events.js';
import { label as describe } from '../dom/describe.js';
import { nameOf, roleOf } from '../dom/aria.js';
import { isRef } from '../dom/refs.js';
import { selectorFor, stableSelectorFor } from '../dom/selector.js';
import { findAll, resolveTarget } from '../dom/targets.js';
import { isDisabled, isVisible } from '../dom/visible.js';
import { clean, kept, type Shown } from './readback.js';
import { fieldValue } from './scan.js';
import { NotTaken, setField, type Value, type Wanted } from './set-field.js';
import { fieldLabel } from './field.js';
import { buttonsIn, frameDocuments, fieldsIn, openDialogs, optionLabel, surfaceTitle } from './surfaces.js';

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
    // Stryker disable next-line MethodExpression: equivalent, a missing name read as "" matches only a key that cleans to "", which the schema refuses
    [fieldLabel(el), el.getAttribute('placeholder'), el.getAttribute('name'), el.id, el.getAttribute('aria-label')]
      .filter((k): k is string => Boolean(k))
      .map(clean);
  return (
    fields.find((el) => keys(el).includes(wanted)) ??
    fields.find((el) => isA(el, HTMLInputElement) && el.type === 'radio' && clean(optionLabel(el)) === wanted) ??
    fields.find((el) => keys(el).some((k) => k.includes(wanted)))
  );
}

const REPLACED =
  'the app replaced this field while the form was filled and nothing stands in its place; call self_ui to see it now';

/** The field a key names now, after a re-render replaced the element (a ref to it is then refused: none). */
function refound(key: string, scope: Element | Document): Element | undefined {
  try {
    return findField(key, fieldsIn(scope));
  } catch {
    return undefined;
  }
}

/** A password is never echoed back. */
function masked(el: Element, value: Shown): Shown {
  return isA(el, HTMLInputElement) && el.type === 'password' && typeof value === 'string'
    ? '•'.repeat(Math.min(8, value.length))
    : value;
}

/** What a field holds, to compare with what was set: a password's own value (what it shows is masked). */
function heldValue(el: Element): Shown {
  return isA(el, HTMLInputElement) && el.type === 'password' ? el.value : fieldValue(el);
}

/** The button named `wanted` in the scope, waiting a moment for one a closing menu still hides (aria-hidden). */
async function findButton(wanted: string, scope: Element | Document): Promise<Element> {
  const text = clean(wanted);
  const name = (el: Element) => clean(nameOf(el, roleOf(el)) || el.getAttribute('value') || '');
  let buttons: Element[];
  for (const until = Date.now() + 1500; ;) {
    buttons = buttonsIn(scope);
    const found =
      buttons.find((b) => name(b) === text) ??
      buttons.find((b) => name(b).includes(text)) ??
      (wanted.startsWith('css=') || isRef(wanted) ? resolveTarget(wanted) : undefined);
    if (found) return found;
    if (Date.now() > until) break;
    await frame();
  }
  throw new Error(
    `the fields were filled, but no button ${JSON.stringify(wanted)} is in ${scopeName(scope)}; buttons there: ${buttons.map((b) => JSON.stringify(nameOf(b, roleOf(b)))).join(', ') || 'none'}`,
  );
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

interface Plan {
  scope: Element | Document;
  found: Array<[string, Element, Value]>;
  /** keys no field matched, with what the scope offers instead */
  missing: Array<[string, Value]>;
  fields: Element[];
}

/** Where the keys are: the chosen scope, else (no dialog asked for) a same-origin iframe that has them all. */
function locate(args: PageCommandArgs<'UI.fill'>): Plan {
  const scope = findScope(args.dialog);
  const attempt = (where: Element | Document): Plan => {
    const fields = fieldsIn(where);
    const plan: Plan = { scope: where, found: [], missing: [], fields };
    for (const [key, value] of Object.entries(args.fields)) {
      const el = findField(key, fields);
      if (el) plan.found.push([key, el, value]);
      else plan.missing.push([key, value]);
    }
    return plan;
  };
  const first = attempt(scope);
  if (!first.missing.length) return first;
  // the scope is the document only when no dialog was asked for (and none is open)
  if (isA(scope, Document))
    for (const doc of frameDocuments(document)) {
      const inFrame = attempt(doc);
      if (!inFrame.missing.length) return inFrame;
    }
  return first;
}

function offered(plan: Plan): string {
  const labels = [...new Set(plan.fields.map(fieldLabel).filter(Boolean))].map((l) => JSON.stringify(l));
  return `no field matches it in ${scopeName(plan.scope)}; fields there: ${labels.join(', ') || 'none'} (call self_ui for selectors)`;
}

/**
 * form_fill: every key is matched to a field first; every field that matched is set (one that did not take its
 * value does not stop the others); then focus leaves the last field, the app re-renders, and each field is read
 * back the way a person sees it. A key with no field, a field the widget did not take and a value the app did
 * not keep are each under notFilled with what the page shows or offers instead — and then the button is not
 * pressed, unless the agent asked for it anyway (pressAnyway); by default it is pressed only when every field was
 * filled and kept. A second call with only the fields under notFilled finishes the form.
 */
export async function fill(args: PageCommandArgs<'UI.fill'>): Promise<UiFillResult> {
  const plan = locate(args);
  const { scope } = plan;
  const expected: Array<{ key: string; el: Element; wanted: Wanted; value: Value }> = [];
  const notFilled: NonNullable<UiFillResult['notFilled']> = plan.missing.map(([field, wanted]) => ({
    field,
    wanted,
    shows: '',
    reason: offered(plan),
  }));
  const places = new Map(plan.found.map(([key, el]) => [key, { doc: el.ownerDocument, path: selectorFor(el) }]));
  /** the element a key names now: a re-render may have put another in its place (never a detached one) */
  const current = (key: string, el: Element): Element | undefined => {
    if (el.isConnected) return el;
    const again = isRef(key) ? undefined : refound(key, scope);
    if (again) return again;
    const place = places.get(key);
    const there = place ? place.doc.querySelector(place.path) : null;
    return there && there.localName === el.localName ? there : undefined;
  };
  for (const [key, found, value] of plan.found) {
    const el = current(key, found);
    if (!el) {
      notFilled.push({ field: key, wanted: value, shows: '', reason: REPLACED });
      continue;
    }
    try {
      expected.push({ key, el, value, wanted: await setField(el, value, plan.fields) });
    } catch (error) {
      if (!(error instanceof NotTaken)) throw error;
      notFilled.push({
        field: key,
        wanted: value,
        shows: masked(el, fieldValue(el)),
        reason: error.message,
        ...(error.options ? { options: error.options } : {}),
      });
    }
    await frame();
  }
  // blur: widgets such as MUI Autocomplete settle their value when focus leaves them
  const active = (isA(scope, Document) ? scope : scope.ownerDocument).activeElement;
  if (isA(active, HTMLElement) && plan.found.some(([, el]) => el.contains(active))) active.blur();
  await frame();
  await frame();
  const filled: UiFillResult['filled'] = [];
  for (const { key, el, wanted, value } of expected) {
    // a re-render may have replaced the element: read the field the key names now, never the detached one
    const now = current(key, el);
    if (!now) {
      notFilled.push({ field: key, wanted: value, shows: '', reason: REPLACED });
      continue;
    }
    const shows = heldValue(now);
    if (kept(wanted.want, shows, wanted.how)) {
      const selector = stableSelectorFor(now);
      filled.push({ field: key, ...(selector ? { selector } : {}), value: masked(now, shows) });
    } else
      notFilled.push({
        field: key,
        wanted: masked(now, typeof value === 'number' ? String(value) : value),
        shows: masked(now, shows),
        reason: wanted.unkept ?? 'the app did not keep the value',
      });
  }
  // in the order the keys were given (filled is in that order already: keys are set and read back in it)
  const order = Object.keys(args.fields);
  notFilled.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
  const result: UiFillResult = { scope: scopeName(scope), filled };
  if (notFilled.length) {
    result.notFilled = notFilled;
    if (args.button && !args.pressAnyway) {
      result.note = `${JSON.stringify(args.button)} was not pressed because some fields were not filled`;
      return result;
    }
    if (args.button)
      result.note = `${JSON.stringify(args.button)} was pressed although some fields were not filled (pressAnyway)`;
  }
  if (args.button) {
    const button = await findButton(args.button, scope);
    if (isDisabled(button))
      throw new Error(`the fields were filled, but ${describe(button)} is disabled (a required field may be missing)`);
    clickSequence(button);
    result.clicked = describe(button);
    if (isA(scope, Element)) result.dialogOpen = await stillOpenAfterSubmit(scope);
  }
  return result;
}
