import { isA } from '../dom/realm.js';
import { describeElement } from '../dom/json.js';
import { hearsPress } from './listeners.js';

/**
 * Where a person's pointer lands on an element: a point of it they can see, and the element the browser would hand
 * the press to there (elementFromPoint, through shadow roots). A press goes to that element, as a real mouse's does,
 * so a handler on a child of the target (`<li role=option><a onClick>`) hears it, and one on a wrapper hears it by
 * bubbling.
 */
export interface Aim {
  x: number;
  y: number;
  /** the element the events are dispatched on */
  on: Element;
  /**
   * `inside`: the point hits the target or a child of it; `part`: it hits the target's label; `covered`: something else is on top there, and the events go to
   * the target as asked (the note says what a person would have hit); `none`: no point of it is on the screen
   */
  lands: 'inside' | 'part' | 'covered' | 'none';
  cover?: Element;
}

/** The agent's own overlay never takes a press meant for the page. */
function own(el: Element): boolean {
  return el.localName === 'aiti-overlay' || Boolean(el.closest('aiti-overlay'));
}

/** The element at (x, y) in `doc`, through open shadow roots, skipping the agent's overlay. */
export function elementAt(doc: Document, x: number, y: number): Element | undefined {
  let hit = doc.elementsFromPoint(x, y).find((el) => !own(el));
  for (let depth = 0; hit?.shadowRoot && depth < 20; depth++) {
    const inner = hit.shadowRoot.elementsFromPoint(x, y).find((el) => !own(el) && el !== hit);
    if (!inner || !hit.shadowRoot.contains(inner)) break;
    hit = inner;
  }
  return hit;
}

/** Points of `el` a person could press, best first: its centre, then the centres of its quarters, in the viewport. */
function candidates(el: Element): Array<{ x: number; y: number }> {
  const view = el.ownerDocument.defaultView;
  const width = view?.innerWidth ?? 0;
  const height = view?.innerHeight ?? 0;
  const points: Array<{ x: number; y: number }> = [];
  for (const r of el.getClientRects()) {
    const left = Math.max(r.left, 0);
    const right = Math.min(r.right, width);
    const top = Math.max(r.top, 0);
    const bottom = Math.min(r.bottom, height);
    if (right - left < 1 || bottom - top < 1) continue;
    const w = right - left;
    const h = bottom - top;
    for (const [fx, fy] of [
      [0.5, 0.5],
      [0.25, 0.5],
      [0.75, 0.5],
      [0.5, 0.25],
      [0.5, 0.75],
    ] as const)
      points.push({ x: Math.round(left + w * fx), y: Math.round(top + h * fy) });
  }
  return points;
}

/** Whether `hit` is the label of `target` (or the control of a label that is the target): a press there is its. */
function samePart(target: Element, hit: Element): boolean {
  const labels = (target as HTMLInputElement).labels;
  if (labels && [...labels].some((l) => l.contains(hit))) return true;
  return Boolean(
    isA(target, HTMLLabelElement) && target.control && (target.control === hit || target.control.contains(hit)),
  );
}

/**
 * The part of `el` a person would press: the one element inside it that does something when pressed (the link in
 * a menu option that holds the handler), else `el` itself.
 */
function pressablePart(el: Element): Element {
  // a large container is not one control: its parts are pressed by their own refs
  if (hearsPress(el) || el.getElementsByTagName('*').length > 200) return el;
  const inner = [...el.querySelectorAll('*')].filter((c) => hearsPress(c) && c.getClientRects().length > 0);
  return inner.length === 1 && inner[0] ? inner[0] : el;
}

/** Where a press on `el` lands, once it is scrolled into view. */
export function aim(el: Element): Aim {
  const part = pressablePart(el);
  const points = [...(part === el ? [] : candidates(part)), ...candidates(el)];
  let first: Aim | undefined;
  for (const point of points) {
    const hit = elementAt(el.ownerDocument, point.x, point.y);
    if (!hit) continue;
    // the target itself or a child of it: the press goes to what is under the pointer
    if (el === hit || el.contains(hit)) return { ...point, on: hit, lands: 'inside' };
    // an ancestor answers for a target that takes no pointer there (pointer-events: none): the events still start
    // at the target, and bubble through it
    if (hit.contains(el)) return { ...point, on: el, lands: 'inside' };
    if (samePart(el, hit)) first ??= { ...point, on: hit, lands: 'part' };
    else first ??= { ...point, on: el, lands: 'covered', cover: hit };
  }
  if (first) return first;
  const r = el.getBoundingClientRect();
  return { x: Math.round(r.left + r.width / 2), y: Math.round(r.top + r.height / 2), on: el, lands: 'none' };
}

/** Scrolls `el` into view when no part of it is on the screen, as a person scrolls to what they will press. */
export function scrollToSee(el: Element): void {
  if (candidates(el).length) return;
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
}

/** The note a result carries when the press did not land on the target: what a person would have pressed. */
export function aimNote(a: Aim): string | undefined {
  if (a.lands === 'covered' && a.cover)
    return `note: ${describeElement(a.cover)} covers it at (${a.x}, ${a.y}); a person would have clicked that instead`;
  if (a.lands === 'none') return 'note: no part of it is on the screen, even scrolled to; a person could not press it';
  return undefined;
}
