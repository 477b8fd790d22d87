/** How much of a card must be in view for keys to act on it (all of it when it is shorter). */
const VISIBLE_PX = 100;

/**
 * Whether the human can see the card: enough of it lies inside the scrolling list and the viewport. Keys act only
 * on a card that is on screen, so nothing is answered, rejected or picked out of sight. An element that is not
 * laid out (no size) is taken as seen: there is nothing to judge.
 */
export function isOnScreen(card: Element | null): boolean {
  if (!card) return false;
  const rect = card.getBoundingClientRect();
  if (rect.height === 0 && rect.width === 0) return true;
  let top = 0;
  let bottom = window.innerHeight;
  const scroller = card.closest('.main-scroll');
  if (scroller) {
    const box = scroller.getBoundingClientRect();
    top = Math.max(top, box.top);
    bottom = Math.min(bottom, box.bottom);
  }
  const visible = Math.min(rect.bottom, bottom) - Math.max(rect.top, top);
  return visible >= Math.min(rect.height, VISIBLE_PX) - 1;
}

/** Brings a card into view (the human sees which card their next key acts on). */
export function showCard(card: Element | null | undefined): void {
  card?.scrollIntoView?.({ block: 'nearest' });
}
