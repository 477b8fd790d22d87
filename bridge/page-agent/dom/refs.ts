/**
 * Refs (`e12`) name elements between calls: a snapshot hands them out, every command accepts them. An element
 * keeps its ref for the life of the document, so refs from an older snapshot still work while it exists.
 */
const refOf = new WeakMap<Element, string>();
const byRef = new Map<string, WeakRef<Element>>();
let next = 1;

export function refFor(el: Element): string {
  let ref = refOf.get(el);
  if (!ref) {
    ref = `e${next++}`;
    refOf.set(el, ref);
    byRef.set(ref, new WeakRef(el));
  }
  return ref;
}

export function elementForRef(ref: string): Element | undefined {
  const el = byRef.get(ref)?.deref();
  return el?.isConnected ? el : undefined;
}

export const REF_PATTERN = /^e\d+$/;
