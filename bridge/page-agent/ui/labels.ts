import { labelText } from '../dom/aria.js';
import { isVisible, normalize } from '../dom/visible.js';

/**
 * The text a person reads as a field's label. The control's own label first (label[for], a wrapping label,
 * aria-labelledby, aria-label); then the label of the field's container, for the many widgets whose label is
 * written beside the control rather than tied to it (a Slider under its caption, a Chakra Field.Label pointing
 * at an id the widget did not take, shadcn's FormLabel naming a radio group's div).
 */

/** Elements a label is made of, not the control: the first of them in a container is its caption. */
const CAPTION = 'label, legend, [data-part=label], [data-slot=form-label], [id$=-label], [id$=label]';

/** How many ancestors up a field's container may be (a control wrapped in a few styling divs). */
const CONTAINER_DEPTH = 5;

/**
 * The caption of the smallest container around `el` that holds no other field: its label or legend, else a
 * short text written just before the control (a paragraph above a slider).
 */
export function containerLabel(el: Element, isField: (other: Element) => boolean): string {
  let inner: Element = el;
  for (let node = el.parentElement, depth = 0; node && depth < CONTAINER_DEPTH; node = node.parentElement, depth++) {
    // a short text just before the part of the container that holds the control (a label above a slider)
    const before = captionBefore(inner);
    if (before) return before;
    const others = [...node.querySelectorAll('*')].some(isField);
    if (others) return '';
    const caption = [...node.querySelectorAll(CAPTION)].find(
      (c) => !c.contains(el) && !inner.contains(c) && isVisible(c) && normalize(c.textContent),
    );
    if (caption) return normalize(caption.textContent);
    inner = node;
  }
  return '';
}

/** The text of the element just before `el`, when it reads as a caption: short, no control in it, not another's label. */
function captionBefore(el: Element): string {
  const before = el.previousElementSibling;
  if (!before || !isVisible(before) || before.querySelector('input, select, textarea, button')) return '';
  if (before.localName === 'label' && ((before as HTMLLabelElement).control || before.hasAttribute('for'))) return '';
  const text = normalize(before.textContent);
  return text.length <= 60 ? text : '';
}

/** Form items of component libraries (MUI, Ant Design, shadcn) put the label beside a wrapper, not on the control. */
export function formItemLabel(el: Element): string {
  const item = el.closest('.MuiFormControl-root, .ant-form-item, [data-slot=form-item]');
  const label = item?.querySelector('.MuiFormLabel-root, .ant-form-item-label, label');
  if (!label || label.contains(el)) return '';
  return normalize(label.textContent);
}

/** The label of one radio option (its own label), vs the group's label. */
export function optionLabel(el: Element): string {
  return labelText(el) || (el as HTMLInputElement).value || normalize(el.getAttribute('value')) || '';
}

/** A group's name: its own label, a legend of the fieldset around it, a form item's label. */
export function groupLabel(group: Element): string {
  const own = labelText(group);
  if (own) return own;
  const legend = group.closest('fieldset')?.querySelector('legend');
  if (legend) return normalize(legend.textContent);
  // a label[for] that points at the group itself (not labelable, so not in .labels)
  if (group.id) {
    const pointing = group.ownerDocument.querySelector(`label[for="${CSS.escape(group.id)}"]`);
    if (pointing) return normalize(pointing.textContent);
  }
  return '';
}

/** Whether a name is one a library generated (Mantine's radio group name, React's useId), not the author's. */
export function generatedName(name: string): boolean {
  if (/[:«»]/.test(name)) return true;
  if (/^(mantine|radix|react-aria|headlessui|chakra|ark|mui|rc)[-_]/i.test(name)) return true;
  const tail = /[-_]([a-z0-9]{6,})$/i.exec(name)?.[1];
  return Boolean(tail && /\d/.test(tail) && /[a-z]/i.test(tail));
}
