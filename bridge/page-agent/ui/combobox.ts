import { isA } from '../dom/realm.js';
import { clickSequence } from '../act/events.js';
import { parseChord, press } from '../act/keys.js';
import { fireInput, isTextControl, setNativeValue } from '../act/values.js';
import { isListboxButton } from '../dom/aria.js';
import { isVisible, normalize } from '../dom/visible.js';
import { settled } from '../dom/settle.js';
import { widgetRoot } from './field.js';

/**
 * Choosing options in composite widgets (role=combobox / listbox / option): MUI Select and Autocomplete, Radix
 * Select, Ant Design Select, Headless UI Listbox. The widget is driven the way a person drives it: open it (a
 * press, or typing into its text box), wait for its list of options, press the option. What it ends up showing
 * is read back by the caller after the app re-rendered.
 */

/** The widget did not offer the option: nothing was chosen. `options` are the labels it offered, when it showed a list. */
export class OptionError extends Error {
  constructor(
    message: string,
    readonly options?: string[],
  ) {
    super(message);
  }
}

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

/** What the widget names as its popup (aria-controls, aria-owns): the list, or a container that holds it. */
export function controlled(combo: Element): Element[] {
  return [...byIds(combo, 'aria-controls'), ...byIds(combo, 'aria-owns')];
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
  const linked = controlled(combo);
  for (const target of linked) {
    // aria-controls may name a container (an overlay div) that holds the listbox: the list is the listbox in it
    const list = target.matches('[role=listbox]') ? target : (target.querySelector('[role=listbox]') ?? target);
    if (isVisible(list) && visibleOptions(list).length) return list;
  }
  // Ant Design links its input to a 0 px accessibility copy of the list (`<id>_list`) inside the visual dropdown
  const copy = combo.id ? combo.ownerDocument.getElementById(`${combo.id}_list`) : null;
  const dropdown = copy?.closest('.ant-select-dropdown');
  if (dropdown && showing(dropdown)) return dropdown;
  // popups are often portals with no link back: the list that appeared since the widget was opened
  const doc = combo.ownerDocument;
  const lists = [...doc.querySelectorAll('[role=listbox], .ant-select-dropdown')].filter(showing);
  const appeared = lists.find((list) => !before.has(list));
  // a widget that names its popup is answered only by that popup, never by another list still closing
  if (appeared || linked.length) return appeared;
  return lists[lists.length - 1];
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

const DIALOGS = 'dialog, [role=dialog], [role=alertdialog], [aria-modal=true]';

/** Escape, then a moment for the list to go (its aria-expanded, or the list itself), so the next press opens it. */
async function close(combo: Element): Promise<void> {
  // a button that opened a list inside a dialog closes it with a second press, as a person would: Escape there
  // often reaches the dialog too and closes it with the list (Headless UI)
  if (isListboxButton(combo) && combo.closest(DIALOGS) && combo.getAttribute('aria-expanded') === 'true') {
    clickSequence(combo);
    for (let waited = 0; waited < 300 && combo.getAttribute('aria-expanded') === 'true'; waited += 16) await frame();
    if (combo.getAttribute('aria-expanded') !== 'true') return;
  }
  // Escape where the widget listens: the focused option or box, else the combobox itself (focus may be on body)
  const active = combo.ownerDocument.activeElement;
  const list = openList(combo, new Set());
  const inside = active && (combo.contains(active) || active === combo || list?.contains(active));
  press(inside ? active : combo, parseChord('Escape'));
  for (let waited = 0; waited < 500 && combo.getAttribute('aria-expanded') === 'true'; waited += 16) await frame();
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
  // still open from the last choice (a multiple select stays open): use it as it is
  const open = combo.getAttribute('aria-expanded') === 'true' ? openList(combo, new Set()) : undefined;
  const typed = isTextControl(combo) && !combo.readOnly;
  if (open && (filter === undefined || !typed)) return { list: open, options: visibleOptions(open) };
  // a list still closing from the last choice (a transition): let it close, so the press opens, not toggles
  for (let waited = 0; !open && combo.getAttribute('aria-expanded') === 'true' && waited < 500; waited += 16)
    await frame();
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
  if (!list && typed) {
    // and some open only on what is typed, key by key: the first letter of the filter, as a person starts typing
    const first = (filter ?? '').charAt(0);
    if (first) {
      setNativeValue(combo, '');
      press(combo, parseChord(first));
      list = await waitForList(combo, before, 800);
    }
  }
  if (!list) throw new OptionError(`${what} did not open a list of options when pressed`);
  // a list that has just appeared may still be wiring itself up (Angular Material's autocomplete listens to its
  // options only once the panel has rendered): let it settle before an option is pressed
  await settled(300, 50);
  const shown = list.isConnected ? list : (openList(combo, before) ?? list);
  return { list: shown, options: visibleOptions(shown) };
}

/**
 * Closes the list and puts back the text the widget's box held before a filter was typed (`before`): emptying it
 * instead would clear a single-value Autocomplete, which takes an empty box as "no value".
 */
export async function closeOptions(combo: Element, before: string): Promise<void> {
  if (isTextControl(combo) && !combo.readOnly && combo.value !== before) {
    setNativeValue(combo, before);
    fireInput(combo, before);
  }
  await close(combo);
}

/** The error for an option the list does not have, naming (up to 30 of) those it has. */
export function noSuchOption(what: string, wanted: string, options: Element[]): OptionError {
  const offered = options.slice(0, 30).map((o) => JSON.stringify(optionText(o)));
  return new OptionError(
    `${what} offers no option ${JSON.stringify(wanted)}; options: ${offered.join(', ') || 'none'}${options.length > 30 ? ' …' : ''}`,
    options.slice(0, 30).map(optionText),
  );
}

/**
 * Opens `combo` and presses the option named `wanted` (then waits for the list to close, unless it stays open:
 * `closes` false). Returns the option's label; an OptionError lists what was offered.
 */
export async function chooseOption(combo: Element, wanted: string, what: string, closes = true): Promise<string> {
  const { options } = await openOptions(combo, wanted, what);
  const option = match(options, wanted);
  if (!option) {
    await close(combo);
    throw noSuchOption(what, wanted, options);
  }
  return pressOption(option, closes ? combo : undefined);
}

/** Presses an option of an open list, as a person clicks it; returns its label once a closing list has gone. */
export async function pressOption(option: Element, combo?: Element): Promise<string> {
  const text = optionText(option);
  option.scrollIntoView({ block: 'nearest', behavior: 'instant' });
  clickSequence(option);
  await frame();
  for (let waited = 0; combo && waited < 300 && option.isConnected && isVisible(option); waited += 16) {
    if (combo.getAttribute('aria-expanded') !== 'true') break;
    await frame();
  }
  return text;
}

/** A trigger showing its placeholder, not a value (Radix, Chakra and React Aria mark it). */
export function showsPlaceholder(combo: Element): boolean {
  if (combo.hasAttribute('data-placeholder') || combo.hasAttribute('data-placeholder-shown')) return true;
  return Boolean(combo.querySelector('[data-placeholder=true], [data-placeholder=""]'));
}

/** Not part of the value a person reads: hidden, announced only (live regions), or a placeholder. */
function notValue(el: Element, box: Element): boolean {
  if (el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('aria-live')) return true;
  if (['log', 'status', 'alert', 'button'].includes(el.getAttribute('role') ?? '') || el.localName === 'button')
    return true;
  const refs = `${box.getAttribute('aria-describedby') ?? ''} ${box.getAttribute('aria-labelledby') ?? ''}`;
  if (el.id && refs.split(/\s+/).includes(el.id)) return true;
  if (el.localName === 'label' || el.localName === 'legend') return true;
  if (/placeholder/i.test(typeof el.className === 'string' ? el.className : '')) return true;
  const r = el.getBoundingClientRect();
  return r.width <= 1 || r.height <= 1 || !isVisible(el);
}

/** The text shown beside a text box inside its widget (react-select's single value), without the box. */
function besideText(root: Element, box: Element): string {
  let out = '';
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent ?? '';
      else if (isA(child, Element) && child !== box && !child.contains(box) && !notValue(child, box)) {
        if (!['input', 'select', 'textarea', 'script', 'style'].includes(child.localName)) walk(child);
        out += ' ';
      } else if (isA(child, Element) && child.contains(box) && child !== box) walk(child);
    }
  };
  walk(root);
  return normalize(out);
}

/**
 * The text a combobox shows as its value: its own text without a popup it renders inside itself (Angular
 * Material's select panel is a native popover inside the host), and without aria-hidden icons.
 */
export function ownText(combo: Element): string {
  let out = '';
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent ?? '';
      else if (isA(child, Element)) {
        if (child.matches('[role=listbox], [role=option], [role=dialog], [popover], [aria-hidden=true], [hidden]'))
          continue;
        out += ' ';
        walk(child);
        out += ' ';
      }
    }
  };
  walk(combo);
  return normalize(out);
}

/** What a combobox shows now: its text box's value, else its own text, else the value a library renders beside it. */
export function shownChoice(combo: Element): string {
  if (isTextControl(combo) && combo.value) return combo.value;
  if (!isA(combo, HTMLInputElement)) {
    if (showsPlaceholder(combo)) return '';
    // the text a person reads on it, without the icons a library marks aria-hidden (React Aria's "▼")
    const own = ownText(combo);
    if (own) return own;
  }
  const selection = combo
    .closest('.ant-select, [data-radix-select-trigger], .MuiAutocomplete-root')
    ?.querySelector('.ant-select-selection-item, .ant-select-content-has-value, .MuiChip-label');
  if (selection) return normalize(selection.getAttribute('title') || (selection as HTMLElement).innerText);
  if (isTextControl(combo)) return besideText(widgetRoot(combo), combo);
  return '';
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
