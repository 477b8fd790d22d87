import { clickSequence } from '../act/events.js';
import { isVisible } from '../dom/visible.js';
import { clean } from './readback.js';
import { optionLabel } from './labels.js';

/**
 * Radio groups of ARIA radios (Radix and shadcn's RadioGroup: buttons with role=radio, their labels tied by
 * label[for]): the group is one field, its value the label of the checked radio.
 */
function radios(group: Element): Element[] {
  return [...group.querySelectorAll('[role=radio]:not(input)')].filter(isVisible);
}

export function radioOptions(group: Element): string[] {
  return radios(group).map(optionLabel);
}

export function radioGroupValue(group: Element): string {
  const checked = radios(group).find((r) => r.getAttribute('aria-checked') === 'true');
  return checked ? optionLabel(checked) : '';
}

/** Presses the radio named `wanted` (its label, or its value); returns its label, or undefined when none is. */
export function chooseRadio(group: Element, wanted: string): string | undefined {
  const w = clean(wanted);
  const option = radios(group).find((r) => clean(optionLabel(r)) === w || clean(r.getAttribute('value') ?? '') === w);
  if (!option) return undefined;
  if (option.getAttribute('aria-checked') !== 'true') clickSequence(option);
  return optionLabel(option);
}
