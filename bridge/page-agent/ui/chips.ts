import { isA } from '../dom/realm.js';
import { contentText } from '../dom/aria.js';
import { isVisible, normalize } from '../dom/visible.js';

/**
 * The values a multi-value widget shows, the way a person reads them: the chips (pills, tags) beside its box,
 * each with a control that removes it — MUI's Chip, Ant Design's tag, Mantine's Pill, react-select's multi-value.
 * Found by that pattern (text + a remove control), not by library: whatever draws a removable value is one.
 */

/** A control that removes one value: a button, an element named or classed remove/delete. */
const REMOVE =
  'button, [role=button], [aria-label*=remove i], [aria-label*=delete i], [class*=remove i], [class*=delete i]';

export interface Chip {
  text: string;
  /** what removes it, if it can be removed */
  remove?: Element;
}

/** The chips beside `box` inside `root`: each remove control's nearest ancestor with text of its own. */
export function chipsIn(root: Element, box: Element): Chip[] {
  const chips: Chip[] = [];
  const seen = new Set<Element>();
  for (const remove of root.querySelectorAll(REMOVE)) {
    if (remove === box || remove.contains(box) || box.contains(remove)) continue;
    let chip = remove.parentElement;
    while (chip && chip !== root && !textBeside(chip, remove)) chip = chip.parentElement;
    if (!chip || chip === root || chip.contains(box) || seen.has(chip) || !isVisible(chip)) continue;
    seen.add(chip);
    chips.push({ text: textBeside(chip, remove), remove });
  }
  return chips;
}

/** The text of `chip` without that of its remove control (a "×" glyph, an aria-label read as text). */
function textBeside(chip: Element, remove: Element): string {
  const title = chip.getAttribute('title');
  if (title) return normalize(title);
  let text = '';
  for (const node of chip.childNodes) {
    if (node === remove || (isA(node, Element) && node.contains(remove) && node !== chip)) {
      if (isA(node, Element) && node !== remove) text += ` ${textBeside(node, remove)} `;
      continue;
    }
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    else if (isA(node, Element)) text += ` ${contentText(node, 200)} `;
  }
  return normalize(text);
}

/** The options a hidden native select beside the widget holds (React Aria, Chakra keep one for forms). */
export function hiddenSelection(root: Element): string[] | undefined {
  const select = root.querySelector('select');
  if (!select) return undefined;
  return [...select.selectedOptions].map((o) => normalize(o.text)).filter(Boolean);
}

/**
 * A value text that lists several values ("Cheese, Olives", "Cheese, Olives, and Basil", "Cheese and Olives"),
 * split into the values.
 */
export function splitList(text: string): string[] {
  return normalize(text)
    .split(/(?<!\s)\s*,\s*(?:and\s+|or\s+)?|(?<!\s)\s+and\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
}
