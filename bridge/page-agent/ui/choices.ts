import { isTextControl } from '../act/values.js';
import { clickSequence } from '../act/events.js';
import { chipsIn, hiddenSelection, splitList } from './chips.js';
import { widgetRoot } from './field.js';
import {
  chooseOption,
  closeOptions,
  fold,
  match,
  noSuchOption,
  OptionError,
  openOptions,
  optionText,
  ownText,
  pressOption,
  shownChoice,
  showsPlaceholder,
} from './combobox.js';

/**
 * Multi-value comboboxes (MUI Autocomplete `multiple`, Ant Design Select `mode="multiple"`, Mantine MultiSelect,
 * react-select `isMulti`, a multiple Select of React Aria or Chakra, an aria-multiselectable listbox): form_fill
 * gives the whole selection, and the widget ends up holding exactly that — values already selected and not asked
 * for are removed (replace, not add). Every wanted option is found before anything is pressed, so an unknown one
 * leaves the widget as it was; one the widget already holds is never "missing", even where the list hides it.
 */

/** Whether the widget holds several values: it says so (aria-multiselectable), or shows them as chips. */
export function isMultiChoice(combo: Element, list?: Element): boolean {
  // it says so on itself or on its list (the listbox in the container it controls, once open)
  const multi = '[role=listbox][aria-multiselectable=true]';
  if (
    combo.getAttribute('aria-multiselectable') === 'true' ||
    list?.getAttribute('aria-multiselectable') === 'true' ||
    list?.querySelector(multi)
  )
    return true;
  const root = widgetRoot(combo);
  if (root.querySelector('select[multiple]')) return true;
  if (chipsIn(root, combo).length) return true;
  // empty: nothing to see yet but the library's own mark
  return Boolean(combo.closest('.ant-select-multiple, .ant-select-tags'));
}

/** The values a multi-value widget holds now, as the person sees them. */
export function shownChoices(combo: Element): string[] {
  if (combo.getAttribute('role') === 'listbox')
    return [...combo.querySelectorAll('[role=option][aria-selected=true]')].map(optionText);
  const root = widgetRoot(combo);
  const chips = chipsIn(root, combo);
  if (chips.length) return chips.map((c) => c.text);
  const hidden = hiddenSelection(root);
  if (hidden) return hidden;
  if (isTextControl(combo) || showsPlaceholder(combo)) return [];
  return splitList(ownText(combo));
}

function selectedIn(options: Element[]): string[] {
  return options
    .filter((o) => o.getAttribute('aria-selected') === 'true' || /-option-selected\b/.test(o.className))
    .map(optionText);
}

const has = (list: string[], label: string) => list.some((l) => fold(l) === fold(label));

/**
 * Takes `label` out of the selection: pressing its option where the list shows it selected (the ARIA way, every
 * library that keeps chosen options in the list), else the remove control of its chip (react-select hides chosen
 * options from the list).
 */
async function deselect(combo: Element, label: string, listed: string[], what: string): Promise<void> {
  if (has(listed, label)) {
    await chooseOption(combo, label, what, false);
    return;
  }
  const chip = chipsIn(widgetRoot(combo), combo).find((c) => fold(c.text) === fold(label));
  if (!chip?.remove) throw new OptionError(`${what} holds ${JSON.stringify(label)} and offers no way to remove it`);
  clickSequence(chip.remove);
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 16)));
}

/**
 * Makes `combo` hold exactly the options named in `wanted` (by label, as chooseOption matches them) and returns
 * their labels. A widget that holds one value takes at most one. An OptionError, with nothing changed, when an
 * option is neither offered nor already held.
 */
export async function chooseOptions(combo: Element, wanted: string[], what: string): Promise<string[]> {
  // the box's text before anything is typed: a single-value Autocomplete shows its value there
  const before = isTextControl(combo) ? combo.value : '';
  const shown = shownChoices(combo);
  const { list, options } = await openOptions(combo, undefined, what);
  const multi = isMultiChoice(combo, list);
  const listedSelected = selectedIn(options);
  const held = [...new Set([...shown, ...listedSelected])];
  const labels = wanted.map((w) => {
    const option = match(options, w);
    return option ? optionText(option) : held.find((h) => fold(h) === fold(w));
  });
  if (!multi && wanted.length !== 1) {
    await closeOptions(combo, before);
    throw new OptionError(
      `${what} holds one value, so give it one string (got ${wanted.length}: ${JSON.stringify(wanted)})`,
    );
  }
  if (!multi) {
    const [w = ''] = wanted;
    // already the value it shows: pressing it again could clear it (a toggling select)
    if (
      fold(shownChoice(combo)) === fold(w) ||
      (labels[0] !== undefined && fold(shownChoice(combo)) === fold(labels[0]))
    ) {
      await closeOptions(combo, before);
      return [labels[0] ?? w];
    }
    const option = match(options, w);
    if (option) return [await pressOption(option, combo)];
  }
  await closeOptions(combo, before);
  // a long or virtual list shows only some options until a filter is typed: look for the others that way
  for (const [i, w] of wanted.entries()) {
    if (labels[i] !== undefined) continue;
    if (!isTextControl(combo) || combo.readOnly) throw noSuchOption(what, w, options);
    const filtered = await openOptions(combo, w, what).catch(() => ({ options: [] as Element[] }));
    const option = match(filtered.options, w);
    await closeOptions(combo, before);
    if (!option) throw noSuchOption(what, w, options);
    labels[i] = optionText(option);
  }
  // a label asked for twice is pressed once (a second press would deselect it)
  const chosen = labels.reduce<string[]>((acc, l) => (l === undefined || has(acc, l) ? acc : [...acc, l]), []);
  if (!multi) return [await chooseOption(combo, chosen[0] ?? '', what)];
  for (const label of held) if (!has(chosen, label)) await deselect(combo, label, listedSelected, what);
  for (const label of chosen) if (!has(held, label)) await chooseOption(combo, label, what, false);
  await closeOptions(combo, before);
  return chosen;
}
