import { isTextControl } from '../commands/values.js';
import { normalize } from '../dom/visible.js';
import {
  chooseOption,
  closeOptions,
  fold,
  match,
  noSuchOption,
  OptionError,
  openOptions,
  optionText,
} from './combobox.js';

/**
 * Multi-value comboboxes (MUI Autocomplete `multiple`, Ant Design Select `mode="multiple"`, an
 * aria-multiselectable listbox): form_fill gives the whole selection, and the widget ends up holding exactly
 * that — values already selected and not asked for are deselected (replace, not add). Every wanted option is
 * found before anything is pressed, so an unknown one leaves the widget as it was.
 */

/** The selection a library renders beside its input: MUI's chips, Ant Design's tags. */
const CHIP_ROOT = '.ant-select, .MuiAutocomplete-root';
const CHIP = '.ant-select-selection-item, .MuiAutocomplete-tag';

function chips(combo: Element): Element[] {
  const root = combo.closest(CHIP_ROOT);
  // Ant Design adds a "+ 2 …" item when it folds tags: not a value
  return root
    ? [...root.querySelectorAll(CHIP)].filter((c) => !c.closest('.ant-select-selection-overflow-item-rest'))
    : [];
}

function chipText(chip: Element): string {
  const label = chip.querySelector('.MuiChip-label, .ant-select-selection-item-content') ?? chip;
  return normalize(chip.getAttribute('title') || (label as HTMLElement).innerText || label.textContent);
}

/** Whether the widget holds several values: it says so (aria-multiselectable), or its library marks it. */
export function isMultiChoice(combo: Element, list?: Element): boolean {
  return (
    combo.getAttribute('aria-multiselectable') === 'true' ||
    list?.getAttribute('aria-multiselectable') === 'true' ||
    Boolean(combo.closest('.ant-select-multiple, .ant-select-tags')) ||
    Boolean(combo.closest('.MuiAutocomplete-root')?.querySelector('.MuiAutocomplete-tag'))
  );
}

/** The values a multi-value widget holds now, as the app renders them. */
export function shownChoices(combo: Element): string[] {
  if (combo.getAttribute('role') === 'listbox')
    return [...combo.querySelectorAll('[role=option][aria-selected=true]')].map(optionText);
  return chips(combo).map(chipText);
}

function selectedIn(options: Element[]): string[] {
  return options
    .filter((o) => o.getAttribute('aria-selected') === 'true' || /-option-selected\b/.test(o.className))
    .map(optionText);
}

/**
 * Makes `combo` hold exactly the options named in `wanted` (by label, as chooseOption matches them) and returns
 * their labels. A widget that holds one value takes at most one. An OptionError, with nothing changed, when an
 * option is not offered.
 */
export async function chooseOptions(combo: Element, wanted: string[], what: string): Promise<string[]> {
  // the box's text before anything is typed: a single-value Autocomplete shows its value there
  const before = isTextControl(combo) ? combo.value : '';
  const { list, options } = await openOptions(combo, undefined, what);
  const multi = isMultiChoice(combo, list);
  const labels = wanted.map((w) => {
    const option = match(options, w);
    return option ? optionText(option) : undefined;
  });
  const held = [...new Set([...shownChoices(combo), ...selectedIn(options)])];
  closeOptions(combo, before);
  if (!multi && wanted.length !== 1)
    throw new OptionError(
      `${what} holds one value, so give it one string (got ${wanted.length}: ${JSON.stringify(wanted)})`,
    );
  // a long or virtual list shows only some options until a filter is typed: look for the others that way
  for (const [i, w] of wanted.entries()) {
    if (labels[i] !== undefined) continue;
    if (!isTextControl(combo) || combo.readOnly) throw noSuchOption(what, w, options);
    const filtered = await openOptions(combo, w, what).catch(() => ({ options: [] as Element[] }));
    const option = match(filtered.options, w);
    closeOptions(combo, before);
    if (!option) throw noSuchOption(what, w, options);
    labels[i] = optionText(option);
  }
  const has = (list: string[], label: string) => list.some((l) => fold(l) === fold(label));
  // a label asked for twice is pressed once (a second press would deselect it)
  const chosen = labels.reduce<string[]>((acc, l) => (l === undefined || has(acc, l) ? acc : [...acc, l]), []);
  if (!multi) return [await chooseOption(combo, chosen[0] ?? '', what)];
  // pressing a selected option deselects it, in every library that renders them in the list (ARIA's way)
  for (const label of held) if (!has(chosen, label)) await chooseOption(combo, label, what);
  for (const label of chosen) if (!has(held, label)) await chooseOption(combo, label, what);
  closeOptions(combo, before);
  return chosen;
}
