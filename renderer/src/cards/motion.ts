import { useCallback, useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** A click this soon after its card moved on screen is held, as a key is on a card that just arrived. */
export const MOVED_MS = 1000;

/**
 * Watches where each card of the list is on screen and when it last moved there by itself (a card above it grew,
 * shrank or left, something was added above the list …). Scrolling is the human's own doing and moves nothing
 * under their hand unawares: it re-reads the places without counting as a move. `movedAgo(askId)` is how long ago
 * the card last moved (Infinity when it never did).
 */
export function useCardMotion(list: RefObject<HTMLElement | null>): (askId: string) => number {
  const places = useRef(new Map<string, { top: number; movedAt: number }>());

  const measure = useCallback(
    (moves: boolean) => {
      const root = list.current;
      if (!root) return;
      const now = performance.now();
      const seen = new Set<string>();
      for (const card of Array.from(root.querySelectorAll<HTMLElement>('.card[data-ask-id]'))) {
        const id = card.dataset.askId ?? '';
        if (card.classList.contains('ended')) continue;
        seen.add(id);
        const top = card.getBoundingClientRect().top;
        const known = places.current.get(id);
        if (!known) places.current.set(id, { top, movedAt: Number.NEGATIVE_INFINITY });
        else if (Math.abs(known.top - top) > 1) places.current.set(id, { top, movedAt: moves ? now : known.movedAt });
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
    const scroller = root.closest('.main-scroll');
    const scrolled = () => measure(false);
    scroller?.addEventListener('scroll', scrolled, { passive: true });
    window.addEventListener('scroll', scrolled, { passive: true });
    window.addEventListener('resize', scrolled);
    return () => {
      resized?.disconnect();
      scroller?.removeEventListener('scroll', scrolled);
      window.removeEventListener('scroll', scrolled);
      window.removeEventListener('resize', scrolled);
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
