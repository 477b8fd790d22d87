import { aim, scrollToSee, type Aim } from './pointer.js';

/** Synthetic input events shaped like a person's: pointer and mouse events at the point the pointer lands on. */
export function centre(el: Element): { clientX: number; clientY: number } {
  const r = el.getBoundingClientRect();
  return { clientX: Math.round(r.left + r.width / 2), clientY: Math.round(r.top + r.height / 2) };
}

const BUTTONS = { left: 0, middle: 1, right: 2 } as const;
export type MouseButton = keyof typeof BUTTONS;

/** One pointer or mouse event on `el`, at `at` (its centre by default); false when a handler cancelled it. */
export function mouse(
  el: Element,
  type: string,
  button: MouseButton = 'left',
  detail = 1,
  at: { clientX: number; clientY: number } = centre(el),
): boolean {
  const init: PointerEventInit = {
    bubbles: !['mouseenter', 'mouseleave', 'pointerenter', 'pointerleave'].includes(type),
    cancelable: true,
    composed: true,
    view: el.ownerDocument.defaultView ?? window,
    detail,
    button: BUTTONS[button],
    buttons: type.endsWith('down') ? 1 << BUTTONS[button] : 0,
    ...at,
  };
  const event = type.startsWith('pointer')
    ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true })
    : new MouseEvent(type, init);
  return el.dispatchEvent(event);
}

export function hoverEvents(el: Element, at: { clientX: number; clientY: number } = centre(el)): void {
  for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'])
    mouse(el, type, 'left', 1, at);
}

/** The element a person would focus by pressing on `el`: itself or its nearest focusable ancestor. */
export function focusTarget(el: Element): HTMLElement | undefined {
  const focusable = el.closest<HTMLElement>(
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable=true]',
  );
  return focusable ?? undefined;
}

/**
 * A press of `el` as a person's: scrolled into view, then pointerdown … click at the point the pointer lands on,
 * dispatched on the element under it there (a child of `el`, or another part of its widget), with focus moving as
 * it would. Returns where it landed.
 */
export function clickSequence(el: Element, button: MouseButton = 'left', detail = 1): Aim {
  scrollToSee(el);
  const landed = aim(el);
  const on = landed.on;
  const at = { clientX: landed.x, clientY: landed.y };
  hoverEvents(on, at);
  mouse(on, 'pointerdown', button, detail, at);
  const focus = mouse(on, 'mousedown', button, detail, at);
  if (focus) focusTarget(on)?.focus({ preventScroll: true });
  mouse(on, 'pointerup', button, detail, at);
  mouse(on, 'mouseup', button, detail, at);
  if (button === 'left') mouse(on, 'click', button, detail, at);
  else if (button === 'right') mouse(on, 'contextmenu', button, detail, at);
  else mouse(on, 'auxclick', button, detail, at);
  return landed;
}
