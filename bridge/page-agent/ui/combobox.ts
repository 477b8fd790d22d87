import { isA } from '../dom/realm.js';
import { clickSequence } from '../commands/events.js';
import { parseChord, press } from '../commands/keys.js';
import { fireInput, isTextControl, setNativeValue } from '../commands/values.js';
import { isListboxButton } from '../dom/aria.js';
import { isVisible, normalize } from '../dom/visible.js';

/**
 * Choosing options in composite widgets (role=combobox / listbox / option): MUI Select and Autocomplete, Radix
 * Select, Ant Design Select, Headless UI Listbox. The widget is driven the way a person drives it: open it (a
 * press, or typing into its text box), wait for its list of options, press the option. What it ends up showing
 * is read back by the caller after the app re-rendered.
 */

/** The widget did not offer the option: nothing was chosen. */
export class OptionError extends Error {}

const frame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 16)));

/** Labels as options are matched: without case or runs of spaces. */
export const fold = (text: string) => normalize(text).toLowerCase();

/** A combobox whose value is a choice from a popup list (not a native select, not a plain text box). */
export function isComposite(el: Element): boolean {
  const role = el.getAttribute('role');
  return role === 'combobox' || role === 'listbox' || isListboxButton(el);
}

function byIds(el: Element, attr: string): Element[] {
  const root = el.getRootNode() as Document | ShadowRoot;
  return (el.getAttribute(attr) ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
    .filter((found): found is HTMLElement => Boolean(found));
}

/** Has a box a person could press: not a 0 px accessibility copy (Ant Design keeps one per option). */
function pressable(el: Element): boolean {
  if (!isVisible(el)) return false;
  const r = el.getBoundingClientRect();
  return r.width > 1 && r.height > 1;
}

/** Options a person can see: role=option, or Ant Design's visual option rows (its role=option copies are 0 px). */
function visibleOptions(root: Element | Document): Element[] {
  const aria = [...root.querySelectorAll('[role=option]')].filter(pressable);
  if (aria.length) return aria;
  return [...root.querySelectorAll('.ant-select-item-option')].filter(pressable);
}

/** A list open now: visible, with options, and not one still fading out after it closed (Ant Design's `-leave`). */
function showing(list: Element): boolean {
  return isVisible(list) && !/-leave\b/.test(list.className) && visibleOptions(list).length > 0;
}

/** The open list of options this widget controls, if it is showing. */
function openList(combo: Element, before: Set<Element>): Element | undefined {
  if (combo.getAttribute('role') === 'listbox') return combo;
  for (const target of [...byIds(combo, 'aria-controls'), ...byIds(combo, 'aria-owns')]) {
    if (isVisible(target) && visibleOptions(target).length) return target;
  }
  // Ant Design links its input to a 0 px accessibility copy of the list (`<id>_list`) inside the visual dropdown
  const copy = combo.id ? combo.ownerDocument.getElementById(`${combo.id}_list`) : null;
  const dropdown = copy?.closest('.ant-select-dropdown');
  if (dropdown && showing(dropdown)) return dropdown;
  // popups are often portals with no link back: the list that appeared since the widget was opened
  const doc = combo.ownerDocument;
  const lists = [...doc.querySelectorAll('[role=listbox], .ant-select-dropdown')].filter(showing);
  return lists.find((list) => !before.has(list)) ?? lists[lists.length - 1];
}

function listsNow(doc: Document): Set<Element> {
  return new Set([...doc.querySelectorAll('[role=listbox], .ant-select-dropdown')].filter(isVisible));
}

async function waitForList(combo: Element, before: Set<Element>, ms: number): Promise<Element | undefined> {
  const until = Date.now() + ms;
  do {
    const list = openList(combo, before);
    if (list) return list;
    await frame();
  } while (Date.now() < until);
  return undefined;
}

export function optionText(option: Element): string {
  return normalize(option.getAttribute('aria-label') || (option as HTMLElement).innerText || option.textContent);
}

/** Exact label, then data-value/value, then a unique prefix, then a unique substring (case-insensitive). */
export function match(options: Element[], wanted: string): Element | undefined {
  const w = fold(wanted);
  const text = (o: Element) => fold(optionText(o));
  const unique = (list: Element[]) => (list.length === 1 ? list[0] : undefined);
  return (
    options.find((o) => text(o) === w) ??
    options.find((o) =>
      [o.getAttribute('data-value'), o.getAttribute('value')].some((v) => v !== null && fold(v) === w),
    ) ??
    unique(options.filter((o) => text(o).startsWith(w))) ??
    unique(options.filter((o) => text(o).includes(w)))
  );
}

function close(combo: Element): void {
  press(combo.ownerDocument.activeElement ?? combo, parseChord('Escape'));
}

/**
 * Opens `combo` and returns the options it shows. A text combobox (an Autocomplete) gets `filter` typed first, so
 * long lists filter down to it; without a filter it is only pressed. An OptionError when no list opens.
 */
export async function openOptions(
  combo: Element,
  filter: string | undefined,
  what: string,
): Promise<{ list: Element; options: Element[] }> {
  const before = listsNow(combo.ownerDocument);
  // a read-only text box (a select without search) takes no typing: it opens on a press
  if (isTextControl(combo) && !combo.readOnly) {
    combo.focus();
    clickSequence(combo);
    if (filter !== undefined && filter !== combo.value) {
      setNativeValue(combo, filter);
      fireInput(combo, filter);
    }
  } else if (combo.getAttribute('role') !== 'listbox') {
    (combo as HTMLElement).focus?.();
    clickSequence(combo);
  }
  let list = await waitForList(combo, before, 800);
  if (!list && combo.getAttribute('role') !== 'listbox') {
    // some widgets open from the keyboard only (or toggled shut on the click): ArrowDown is the ARIA way
    press(combo, parseChord('ArrowDown'));
    list = await waitForList(combo, before, 800);
  }
  if (!list) throw new OptionError(`${what} did not open a list of options when pressed`);
  return { list, options: visibleOptions(list) };
}

/**
 * Closes the list and puts back the text the widget's box held before a filter was typed (`before`): emptying it
 * instead would clear a single-value Autocomplete, which takes an empty box as "no value".
 */
export function closeOptions(combo: Element, before: string): void {
  if (isTextControl(combo) && !combo.readOnly && combo.value !== before) {
    setNativeValue(combo, before);
    fireInput(combo, before);
  }
  close(combo);
}

/** The error for an option the list does not have, naming (up to 30 of) those it has. */
export function noSuchOption(what: string, wanted: string, options: Element[]): OptionError {
  const offered = options.slice(0, 30).map((o) => JSON.stringify(optionText(o)));
  return new OptionError(
    `${what} offers no option ${JSON.stringify(wanted)}; options: ${offered.join(', ') || 'none'}${options.length > 30 ? ' …' : ''}`,
  );
}

/** Opens `combo` and presses the option named `wanted`. Returns the option's label; an OptionError lists what was offered. */
export async function chooseOption(combo: Element, wanted: string, what: string): Promise<string> {
  const { options } = await openOptions(combo, wanted, what);
  const option = match(options, wanted);
  if (!option) {
    close(combo);
    throw noSuchOption(what, wanted, options);
  }
  option.scrollIntoView({ block: 'nearest', behavior: 'instant' });
  clickSequence(option);
  await frame();
  return optionText(option);
}

/** What a combobox shows now: its text box's value, else its own text, else the selection a library renders beside it. */
export function shownChoice(combo: Element): string {
  if (isTextControl(combo) && combo.value) return combo.value;
  if (!isA(combo, HTMLInputElement)) {
    const own = normalize((combo as HTMLElement).innerText);
    if (own) return own;
  }
  const selection = combo
    .closest('.ant-select, [data-radix-select-trigger], .MuiAutocomplete-root')
    ?.querySelector('.ant-select-selection-item, .ant-select-content-has-value, .MuiChip-label');
  if (selection) return normalize(selection.getAttribute('title') || (selection as HTMLElement).innerText);
  return isTextControl(combo) ? combo.value : '';
}

/**
 * After text was typed into a text combobox (an Autocomplete): press the option whose label is exactly that
 * text, as a person would, so the app takes the option and does not drop the text on blur. Free text stays.
 */
export async function takeExactOption(combo: Element, text: string): Promise<boolean> {
  const list = await waitForList(combo, new Set(), 300);
  const option = list ? visibleOptions(list).find((o) => fold(optionText(o)) === fold(text)) : undefined;
  if (!option) return false;
  clickSequence(option);
  await frame();
  return true;
}
