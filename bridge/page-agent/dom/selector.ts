/** A CSS selector that finds this element again (unique within its root), short where ids or names allow. */
export function selectorFor(el: Element): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const unique = (sel: string) => {
    try {
      return root.querySelectorAll(sel).length === 1;
    } catch {
      return false;
    }
  };
  if (el.id && unique(`#${CSS.escape(el.id)}`)) return `#${CSS.escape(el.id)}`;
  const tag = el.localName;
  for (const attr of ['data-testid', 'data-test', 'name', 'aria-label', 'placeholder']) {
    const value = el.getAttribute(attr);
    if (value) {
      const sel = `${tag}[${attr}="${CSS.escape(value)}"]`;
      if (unique(sel)) return sel;
    }
  }
  const parts: string[] = [];
  let node: Element | null = el;
  while (node && node.nodeType === Node.ELEMENT_NODE) {
    if (node.id && unique(`#${CSS.escape(node.id)}`)) {
      parts.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    const parent: Element | null = node.parentElement;
    let part = node.localName;
    if (parent) {
      const same = [...parent.children].filter((c) => c.localName === node?.localName);
      if (same.length > 1) part += `:nth-of-type(${same.indexOf(node) + 1})`;
    }
    parts.unshift(part);
    if (unique(parts.join(' > '))) break;
    node = parent;
  }
  return parts.join(' > ');
}

/** ids that libraries generate per mount (React useId, Radix, Headless UI, rc-select): not worth repeating */
const GENERATED_ID = /^(:r|_r_|«r|r:|radix-|headlessui-|rc_select_|mui-|v-\d|svelte-)/;

/**
 * A selector only when it is short and survives a re-render (an author's id, name, test id, aria-label); refs
 * already name the element, so a positional nth-of-type chain would only cost the reader characters.
 */
export function stableSelectorFor(el: Element): string | undefined {
  const selector = selectorFor(el);
  if (selector.includes(':nth-of-type(') || selector.includes(' > ')) return undefined;
  if (selector.startsWith('#') && GENERATED_ID.test(el.id)) return undefined;
  return selector;
}
