import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** A click this soon after its card moved on screen is held, as a key is on a card that just arrived. */
export const MOVED_MS = 1000;

/**
 * Watches where each card of the list is on screen and when it last moved there by itself (a card above it grew,
 * shrank or left, something was added above the list …). Scrolling is the human's own doing and moves nothing
 * under their hand unawares: a shift the scroll explains is not a move, however soon after it the click comes (a
 * screen reader or a script scrolls a button into view and clicks it in one go, before any scroll event).
 * `movedAgo(askId)` is how long ago the card last moved (Infinity when it never did).
 */
export function useCardMotion(list: RefObject<HTMLElement | null>): (askId: string) => number {
  const places = useRef(new Map<string, { top: number; scrolled: number; movedAt: number }>());

  const measure = useCallback(
    (moves: boolean) => {
      const root = list.current;
      if (!root) return;
      const now = performance.now();
      const scroller = root.closest('.main-scroll');
      /** how far the list is scrolled, in its own scroller and the page's */
      const scrolled = (scroller?.scrollTop ?? 0) + window.scrollY;
      const seen = new Set<string>();
      for (const card of Array.from(root.querySelectorAll<HTMLElement>('.card[data-ask-id]'))) {
        const id = card.dataset.askId ?? '';
        if (card.classList.contains('ended')) continue;
        seen.add(id);
        const top = card.getBoundingClientRect().top;
        const known = places.current.get(id);
        if (!known) places.current.set(id, { top, scrolled, movedAt: Number.NEGATIVE_INFINITY });
        else if (Math.abs(known.top - top) > 1 || known.scrolled !== scrolled) {
          const shift = top - known.top;
          // on screen it moved, and not by the scroll since the last look (the page scrolled down by as much as the
          // card rose, or the browser kept the card in place by scrolling when a card above grew)
          const byItself = Math.abs(shift) > 1 && Math.abs(shift + scrolled - known.scrolled) > 1;
          places.current.set(id, { top, scrolled, movedAt: moves && byItself ? now : known.movedAt });
        }
      }
      for (const id of places.current.keys()) if (!seen.has(id)) places.current.delete(id);
    },
    [list],
  );

  // after every render of the list, and whenever a card's size changes (its own or one above it)
  useLayoutEffect(() => measure(true));
  useEffect(() => {
    const root = list.current;
    if (!root) return;
    // jsdom has no ResizeObserver: the layout effect above still re-reads after every render
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => measure(true));
    resized?.observe(root);
    for (const card of Array.from(root.querySelectorAll('.card'))) resized?.observe(card);
    // the human resizing the window moves the cards under their own hand: a new look, not a move
    const reread = () => measure(false);
    window.addEventListener('resize', reread);
    return () => {
      resized?.disconnect();
      window.removeEventListener('resize', reread);
    };
  });

  return useCallback(
    (askId: string) => {
      // a move not yet seen (the layout changed since the last look) counts as a move now
      measure(true);
      return performance.now() - (places.current.get(askId)?.movedAt ?? Number.NEGATIVE_INFINITY);
    },
    [measure],
  );
}
