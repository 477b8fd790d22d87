/**
 * `instanceof` across documents: an element of a same-origin iframe is an instance of that frame's classes, not
 * of ours, so refs that reach into iframes need a check that asks the element's own window too.
 */
export function isA<T>(node: unknown, ctor: abstract new (...args: never[]) => T): node is T {
  if (node instanceof ctor) return true;
  if (!node || typeof node !== 'object') return false;
  // a document's own window, else the window of the element's document
  const doc = (node as Node).ownerDocument ?? (node as Document);
  const view = doc.defaultView as unknown as Record<string, unknown> | null | undefined;
  const other = view?.[ctor.name];
  return typeof other === 'function' && node instanceof (other as typeof ctor);
}
