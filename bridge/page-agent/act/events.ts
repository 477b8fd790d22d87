/** Synthetic input events shaped like a person's: pointer and mouse events at the element's centre. */
export function centre(el: Element): { clientX: number; clientY: number } {
  const r = el.getBoundingClientRect();
  return { clientX: Math.round(r.left + r.width / 2), clientY: Math.round(r.top + r.height / 2) };
}

const BUTTONS = { left: 0, middle: 1, right: 2 } as const;
export type MouseButton = keyof typeof BUTTONS;

export function mouse(el: Element, type: string, button: MouseButton = 'left', detail = 1): boolean {
  const init: PointerEventInit = {
    bubbles: !['mouseenter', 'mouseleave', 'pointerenter', 'pointerleave'].includes(type),
    cancelable: true,
    composed: true,
    view: window,
    detail,
    button: BUTTONS[button],
    buttons: type.endsWith('down') ? 1 << BUTTONS[button] : 0,
    ...centre(el),
  };
  const event = type.startsWith('pointer')
    ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true })
    : new MouseEvent(type, init);
  return el.dispatchEvent(event);
}

export function hoverEvents(el: Element): void {
  for (const type of ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'])
    mouse(el, type);
}

/** The element a person would focus by pressing on `el`: itself or its nearest focusable ancestor. */
export function focusTarget(el: Element): HTMLElement | undefined {
  const focusable = el.closest<HTMLElement>(
    'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable=true]',
  );
  return focusable ?? undefined;
}

/** pointerdown … click, with focus moving as it would; returns false when a handler cancelled mousedown. */
export function clickSequence(el: Element, button: MouseButton = 'left', detail = 1): void {
  hoverEvents(el);
  mouse(el, 'pointerdown', button, detail);
  const focus = mouse(el, 'mousedown', button, detail);
  if (focus) focusTarget(el)?.focus({ preventScroll: true });
  mouse(el, 'pointerup', button, detail);
  mouse(el, 'mouseup', button, detail);
  if (button === 'left') mouse(el, 'click', button, detail);
  else if (button === 'right') mouse(el, 'contextmenu', button, detail);
  else mouse(el, 'auxclick', button, detail);
}
