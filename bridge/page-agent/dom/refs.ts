import { MAIN_FRAME } from '../../protocol/common.js';
import { formatRef, parseRef, type ParsedRef } from '../../protocol/refs.js';

/**
 * Refs (`e12`, `f1:e12` in a frame) name elements between calls: a snapshot hands them out, every command takes
 * them. A ref names one element for good: numbers come from a counter kept in the tab's sessionStorage, so a
 * new document of the same page goes on where the last one stopped, and a ref from an earlier document or one
 * whose element left the DOM is refused with a RefError, never given to another element.
 */
const refOf = new WeakMap<Element, number>();
const byNumber = new Map<number, WeakRef<Element>>();
/** under the page agent's own prefix, which Storage.get leaves out of the page's data */
const STORE_KEY = 'aiti-bridge:next-ref';
/** numbers are reserved in blocks, so handing out a ref rarely writes to sessionStorage */
const BLOCK = 500;

let frameId = MAIN_FRAME;
let first = 0;
let next = 0;
let reservedUntil = 0;

/** A ref that cannot be used: the message says why and what to do. */
export class RefError extends Error {}

const SNAPSHOT = 'take a new page_snapshot (or DOM.query) and use a ref from it';

function reserve(): void {
  let start: number;
  try {
    const store = window.sessionStorage;
    start = Math.max(1, Number(store.getItem(STORE_KEY)) || 0);
    store.setItem(STORE_KEY, String(start + BLOCK));
  } catch {
    // sandboxed or storage-less documents: a base from this document's start time, a thousand numbers per
    // millisecond, keeps a later document of the tab above every ref an earlier one handed out (at most 14
    // digits, and parseRef takes 15; it wraps every three years)
    start = 1 + ((Math.floor(performance.timeOrigin) * 1000) % 1e14);
  }
  if (first === 0) first = start;
  next = Math.max(next, start);
  reservedUntil = start + BLOCK;
}

function init(): void {
  if (first === 0) reserve();
}

/** This document is frame `id` of its page (set when it joins); its refs carry the frame from then on. */
export function setRefFrame(id: string): void {
  frameId = id;
}

export function refFor(el: Element): string {
  let n = refOf.get(el);
  if (n === undefined) {
    init();
    if (next >= reservedUntil) reserve();
    n = next++;
    refOf.set(el, n);
    byNumber.set(n, new WeakRef(el));
  }
  return formatRef(frameId, n);
}

export function isRef(target: string): boolean {
  return parseRef(target) !== undefined;
}

/** The element a ref (parsed by `parseRef`) names in this document, or a RefError saying why it cannot be used. */
export function elementForRef(ref: ParsedRef): Element {
  const text = formatRef(ref.frameId, ref.n);
  // a bare ref sent to a frame means that frame's own ref (a caller that gave frameId may drop the prefix)
  if (ref.frameId !== MAIN_FRAME && ref.frameId !== frameId)
    throw new RefError(
      `ref ${text} belongs to frame ${ref.frameId}, not to this ${frameId === MAIN_FRAME ? 'top document' : `frame ${frameId}`}; send it with frameId "${ref.frameId}" (page_exec does that for you when frameId is left out)`,
    );
  init();
  const held = byNumber.get(ref.n);
  if (!held) {
    if (ref.n < first)
      throw new RefError(
        `ref ${text} is from an earlier document of this page (it reloaded or navigated since; this document's refs start at ${formatRef(frameId, first)}), so it was not used; ${SNAPSHOT}`,
      );
    throw new RefError(`ref ${text} was never handed out by this document; ${SNAPSHOT}`);
  }
  const el = held.deref();
  if (!el?.isConnected)
    throw new RefError(
      `ref ${text} named an element that is no longer in the page (removed or re-rendered since the snapshot), so it was not used; ${SNAPSHOT}`,
    );
  return el;
}
