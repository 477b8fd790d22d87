/** Queries that also look inside open shadow roots (and, for text, same-origin iframes are left to snapshot). */
export function shadowRoots(root: Document | ShadowRoot | Element): ShadowRoot[] {
  const found: ShadowRoot[] = [];
  const visit = (node: Document | ShadowRoot | Element) => {
    for (const el of node.querySelectorAll('*')) {
      // the agent's own overlay is not part of the page
      if (el.shadowRoot && el.localName !== 'aiti-overlay') {
        found.push(el.shadowRoot);
        visit(el.shadowRoot);
      }
    }
  };
  visit(root);
  return found;
}

export function deepQueryAll(selector: string, root: Document | ShadowRoot = document): Element[] {
  const found = [...root.querySelectorAll(selector)];
  for (const shadow of shadowRoots(root)) found.push(...shadow.querySelectorAll(selector));
  return found;
}

/** Every element, light DOM and open shadow roots. */
export function deepElements(root: Document | ShadowRoot = document): Element[] {
  return deepQueryAll('*', root);
}
