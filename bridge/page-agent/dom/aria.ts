import { isA } from './realm.js';
import { clip, normalize } from './visible.js';

/** Roles, names and actionability, close to the accessibility tree but computed cheaply from the DOM. */

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  email: 'textbox',
  tel: 'textbox',
  text: 'textbox',
  url: 'textbox',
  password: 'textbox',
  file: 'button',
  color: 'button',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  textarea: 'textbox',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  ul: 'list',
  ol: 'list',
  menu: 'list',
  li: 'listitem',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  dialog: 'dialog',
  table: 'table',
  tr: 'row',
  td: 'cell',
  th: 'columnheader',
  p: 'paragraph',
  option: 'option',
  fieldset: 'group',
  details: 'group',
  summary: 'button',
  progress: 'progressbar',
  meter: 'meter',
  hr: 'separator',
  article: 'article',
  iframe: 'iframe',
  label: 'label',
  output: 'status',
};

/**
 * A button that pops up a listbox is a select-only combobox (Headless UI Listbox, the older ARIA listbox
 * pattern): Chromium's accessibility tree shows it as one too, and its text is its value, not its name.
 */
export function isListboxButton(el: Element): boolean {
  const role = el.getAttribute('role')?.trim();
  if (!(role ? role === 'button' : el.localName === 'button')) return false;
  const popup = el.getAttribute('aria-haspopup');
  if (popup === 'listbox') return true;
  // a button that opens a list (aria-expanded, a popup that is not a dialog or grid) and is labelled as a form
  // control from outside it, by label[for] or aria-labelledby: a select, whatever its markup says
  if (popup === 'dialog' || popup === 'grid' || popup === 'false') return false;
  if (!popup && !el.hasAttribute('aria-expanded')) return false;
  return labelledFromOutside(el);
}

/** Named by a label outside it (label[for], a wrapping label, aria-labelledby of another element). */
export function labelledFromOutside(el: Element): boolean {
  if ([...((el as HTMLButtonElement).labels ?? [])].some((l) => normalize(l.textContent))) return true;
  const root = el.getRootNode() as Document | ShadowRoot;
  return (el.getAttribute('aria-labelledby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .some((id) => {
      const label = root.getElementById?.(id);
      return Boolean(label && !el.contains(label) && normalize(label.textContent));
    });
}

export function roleOf(el: Element): string {
  if (isListboxButton(el)) return 'combobox';
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit && explicit !== 'presentation' && explicit !== 'none') return explicit;
  const tag = el.localName;
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : '';
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'hidden') return '';
    if (el.hasAttribute('list')) return 'combobox';
    return INPUT_ROLES[type] ?? 'textbox';
  }
  if (tag === 'select') {
    const select = el as HTMLSelectElement;
    return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
  }
  if (tag === 'img') return el.getAttribute('alt') === '' ? '' : 'img';
  if (tag === 'svg') return el.getAttribute('aria-label') || el.querySelector(':scope > title') ? 'img' : '';
  if (tag === 'header') return el.closest('article, aside, main, nav, section') ? '' : 'banner';
  if (tag === 'footer') return el.closest('article, aside, main, nav, section') ? '' : 'contentinfo';
  if (tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
  // an unnamed form is a generic container to the accessibility tree (HTML-AAM): no line of its own
  if (tag === 'form')
    return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') || el.hasAttribute('title')
      ? 'form'
      : '';
  if ((el as HTMLElement).isContentEditable && !el.parentElement?.isContentEditable) return 'textbox';
  return TAG_ROLES[tag] ?? '';
}

const ACTION_ROLES = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'textbox',
  'searchbox',
  'combobox',
  'listbox',
  'slider',
  'spinbutton',
  'treeitem',
]);

/** A click handler in the markup or one a framework attached. */
export function hasClickHandler(el: Element): boolean {
  return el.hasAttribute('onclick') || hasFrameworkClick(el);
}

/** Handlers a framework attached (React props, Vue invokers): a div with onClick is a button to the user. */
function hasFrameworkClick(el: Element): boolean {
  for (const key of Object.keys(el)) {
    if (key.startsWith('__reactProps$')) {
      const props = (el as unknown as Record<string, Record<string, unknown> | undefined>)[key];
      if (props && (props.onClick || props.onMouseDown || props.onPointerDown)) return true;
    }
    if (key === '_vei') {
      const invokers = (el as unknown as { _vei?: Record<string, unknown> })._vei;
      if (invokers && (invokers.onClick || invokers.onMousedown)) return true;
    }
  }
  return false;
}

/**
 * Actionable only because a framework put a click handler on it (no role, not focusable): a wrapper that focuses
 * the control inside it (MUI's input root, Mantine's pills field), or a label that focuses its control.
 */
export function clickOnly(el: Element, role = roleOf(el)): boolean {
  if (role || el.hasAttribute('onclick') || el.localName === 'label') return false;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0) return false;
  return hasFrameworkClick(el);
}

/** A cell or header of an interactive grid (role=grid, treegrid): focusable, selectable or editable, so a target. */
export function isGridCell(el: Element, role = roleOf(el)): boolean {
  return (
    (role === 'gridcell' || role === 'columnheader' || role === 'rowheader') &&
    Boolean(el.closest('[role=grid], [role=treegrid]'))
  );
}

export function isActionable(el: Element, role = roleOf(el)): boolean {
  if (ACTION_ROLES.has(role) || isGridCell(el, role)) return true;
  if (el.localName === 'label' || el.localName === 'iframe') return false;
  if (el.hasAttribute('onclick')) return true;
  const tabindex = el.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0) return true;
  return hasFrameworkClick(el);
}

function textOfIds(el: Element, ids: string, skipOwn = false): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids
    .split(/\s+/)
    .map((id) => root.getElementById?.(id))
    .filter((found): found is HTMLElement => Boolean(found) && !(skipOwn && el.contains(found ?? null)))
    .map((found) => normalize(found.textContent))
    .filter(Boolean)
    .join(' ');
}

/** Labels of a form control: label[for], a wrapping label, aria-labelledby. */
export function labelText(el: Element): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    // a listbox button names itself after its label (Headless UI: "Team Core", React Aria: the value span, then
    // the label); its own text is the value, not its name
    const text = textOfIds(el, labelledBy, isListboxButton(el));
    if (text) return text;
  }
  const aria = el.getAttribute('aria-label');
  if (aria?.trim()) return normalize(aria);
  const labels = (el as HTMLInputElement).labels;
  if (labels && labels.length) {
    const text = [...labels].map((l) => controlFreeText(l)).join(' ');
    if (normalize(text)) return normalize(text);
  }
  return '';
}

/** A label's text without the text of the control inside it (a wrapping label contains its select's options). */
function controlFreeText(label: Element): string {
  let text = '';
  for (const node of label.childNodes) {
    if (node.nodeType === Node.TEXT_NODE) text += node.textContent ?? '';
    else if (isA(node, Element) && !node.matches('input, select, textarea, button, [aria-hidden=true]'))
      text += controlFreeText(node);
  }
  return text;
}

const NAME_FROM_CONTENT = new Set([
  'button',
  'link',
  'heading',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'cell',
  'columnheader',
  'listitem',
  'checkbox',
  'radio',
  'switch',
  'label',
  'paragraph',
  'status',
]);

const NO_NAME_FROM_CONTENT = new Set(['combobox', 'listbox', 'textbox', 'searchbox', 'spinbutton', 'slider']);

/**
 * The accessible name. `fromContent: false` leaves out the name a role takes from its text (a list item that
 * holds a link: the link carries the text, its item need not repeat it).
 */
export function nameOf(el: Element, role = roleOf(el), max = 80, fromContent = true): string {
  const label = labelText(el);
  if (label) return clip(label, max);
  const tag = el.localName;
  if (tag === 'img' || (tag === 'input' && (el as HTMLInputElement).type === 'image'))
    return clip(normalize(el.getAttribute('alt') ?? el.getAttribute('title')), max);
  if (tag === 'input') {
    const input = el as HTMLInputElement;
    if (['submit', 'button', 'reset'].includes(input.type)) return clip(normalize(input.value || input.type), max);
    return clip(normalize(input.placeholder || el.getAttribute('title')), max);
  }
  if (tag === 'textarea')
    return clip(normalize((el as HTMLTextAreaElement).placeholder || el.getAttribute('title')), max);
  if (tag === 'svg') return clip(normalize(el.querySelector(':scope > title')?.textContent), max);
  if (tag === 'dialog' || role === 'dialog' || role === 'alertdialog') return clip(dialogTitle(el), max);
  if (tag === 'fieldset') return clip(normalize(el.querySelector(':scope > legend')?.textContent), max);
  if (tag === 'iframe') return clip(normalize(el.getAttribute('title') ?? el.getAttribute('name')), max);
  if (fromContent && (NAME_FROM_CONTENT.has(role) || (isActionable(el, role) && !NO_NAME_FROM_CONTENT.has(role)))) {
    const text = contentText(el, max);
    if (text) return clip(text, max);
  }
  return clip(normalize(el.getAttribute('title')), max);
}

const NO_TEXT = new Set(['script', 'style', 'template', 'noscript', 'aiti-overlay']);
const CONTROL_TEXT = new Set(['input', 'select', 'textarea']);

/**
 * An element's text the way the accessibility tree takes a name from content: the DOM text (so CSS
 * text-transform does not change it, unlike innerText: "Edit profile", not "EDIT PROFILE"), without hidden parts,
 * with a space where a block or a line break separates words, an image's alt, and an embedded control's value.
 * Stops once it has more than `max` characters.
 */
export function contentText(el: Element, max = 200): string {
  let out = '';
  const walk = (parent: Node) => {
    const root = isA(parent, Element) && parent.shadowRoot ? parent.shadowRoot : parent;
    for (const node of root.childNodes) {
      if (out.length > max * 2) return;
      if (node.nodeType === Node.TEXT_NODE) {
        out += node.textContent ?? '';
        continue;
      }
      if (!isA(node, Element) || NO_TEXT.has(node.localName)) continue;
      if (node.getAttribute('aria-hidden') === 'true' || (node as HTMLElement).hidden) continue;
      const style = getComputedStyle(node);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const block = !style.display.startsWith('inline') && style.display !== 'contents';
      if (node.localName === 'br' || block) out += ' ';
      if (node.localName === 'img') out += node.getAttribute('alt') ?? '';
      else if (CONTROL_TEXT.has(node.localName)) out += ` ${controlValue(node) ?? ''} `;
      else walk(node);
      if (block) out += ' ';
    }
  };
  walk(el);
  return clip(normalize(out), max);
}

/**
 * The value the accessibility tree shows for a control: an input's value, a select's chosen options, a custom
 * combobox's displayed choice, a slider's aria-valuetext or aria-valuenow. Passwords show as dots.
 */
export function controlValue(el: Element, role = roleOf(el)): string | undefined {
  if (isA(el, HTMLInputElement)) {
    if (['checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file'].includes(el.type)) return undefined;
    if (el.type === 'password') return el.value ? '•'.repeat(Math.min(el.value.length, 8)) : undefined;
    return el.value || undefined;
  }
  if (isA(el, HTMLTextAreaElement)) return el.value || undefined;
  if (isA(el, HTMLSelectElement)) return [...el.selectedOptions].map((o) => normalize(o.text)).join(', ') || undefined;
  const text = el.getAttribute('aria-valuetext') ?? el.getAttribute('aria-valuenow');
  if (text) return normalize(text);
  // a custom combobox (MUI Select, Radix) shows its choice as its own text; its name comes from a label
  if (role === 'combobox' || (el as HTMLElement).isContentEditable) return contentText(el, 120) || undefined;
  return undefined;
}

export function dialogTitle(el: Element): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const text = textOfIds(el, labelledBy);
    if (text) return text;
  }
  const aria = el.getAttribute('aria-label');
  if (aria) return normalize(aria);
  const heading = el.querySelector(
    'h1, h2, h3, h4, h5, h6, [role=heading], .modal-title, .ant-modal-title, .MuiDialogTitle-root, .el-dialog__title, .v-card-title, .chakra-modal__header',
  );
  return normalize(heading?.textContent);
}
