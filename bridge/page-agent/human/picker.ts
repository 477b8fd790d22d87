import { isA } from '../dom/realm.js';
import type { PickResult } from '../../protocol/snapshot.js';
import { nameOf, roleOf } from '../dom/aria.js';
import { refFor } from '../dom/refs.js';
import { selectorFor } from '../dom/selector.js';
import { clip, normalize, rectOf } from '../dom/visible.js';
import { describeElement } from '../dom/json.js';
import { isOverlay, overlayRoot } from './overlay.js';
import { resolveSource } from './source.js';

/**
 * The element picker for user_pick_element: the element under the mouse is outlined with a label (tag, role,
 * name, size); a click picks it without reaching the page; Esc cancels. One picker at a time.
 */
let cancelActive: ((reason: 'replaced') => void) | undefined;

/** Closes the open picker, if any (its ask ended elsewhere); the pending pick answers as replaced. */
export function endPick(): boolean {
  const cancel = cancelActive;
  cancel?.('replaced');
  return cancel !== undefined;
}

export function isPicking(): boolean {
  return cancelActive !== undefined;
}

export function elementAt(event: Event): Element | undefined {
  for (const node of event.composedPath()) {
    if (
      isA(node, Element) &&
      !isOverlay(node) &&
      !(isA(node.getRootNode(), ShadowRoot) && isOverlay((node.getRootNode() as ShadowRoot).host))
    )
      return node;
  }
  return undefined;
}

/** This window and the windows of its same-origin iframes, nested ones too (cross-origin ones are out of reach). */
export function sameOriginWindows(win: Window = window): Window[] {
  const found: Window[] = [win];
  for (const frame of win.document.querySelectorAll('iframe, frame')) {
    try {
      const inner = (frame as HTMLIFrameElement).contentWindow;
      if (inner?.document.body) found.push(...sameOriginWindows(inner));
    } catch {
      // cross-origin: its own agent (if any) answers for it
    }
  }
  return found;
}

/** An element's box in this (top) window's coordinates, across the iframes it sits in. */
function boxInTop(el: Element): { left: number; top: number; width: number; height: number; bottom: number } {
  const r = el.getBoundingClientRect();
  let left = r.left;
  let top = r.top;
  for (let frame = el.ownerDocument.defaultView?.frameElement; frame;) {
    const f = frame.getBoundingClientRect();
    left += f.left + frame.clientLeft;
    top += f.top + frame.clientTop;
    frame = frame.ownerDocument.defaultView?.frameElement ?? null;
  }
  return { left, top, width: r.width, height: r.height, bottom: top + r.height };
}

export function pick(prompt: string, root: string | undefined, timeoutMs = 600_000): Promise<PickResult> {
  cancelActive?.('replaced');
  const shadow = overlayRoot();
  const highlight = document.createElement('div');
  highlight.className = 'highlight';
  const inspector = document.createElement('div');
  inspector.className = 'inspector';
  const banner = document.createElement('div');
  banner.className = 'banner';
  banner.textContent = `${prompt || 'Pick an element'} — click it · Esc to cancel`;
  shadow.append(highlight, inspector, banner);
  const cursor = document.documentElement.style.cursor;
  document.documentElement.style.cursor = 'crosshair';

  return new Promise((resolve) => {
    let current: Element | undefined;
    const show = (el: Element) => {
      current = el;
      const r = boxInTop(el);
      Object.assign(highlight.style, {
        display: 'block',
        left: `${r.left}px`,
        top: `${r.top}px`,
        width: `${r.width}px`,
        height: `${r.height}px`,
      });
      const role = roleOf(el);
      const name = nameOf(el, role, 40);
      inspector.textContent = `${describeElement(el)}${role ? ` ${role}` : ''}${name ? ` "${name}"` : ''}  ${Math.round(r.width)}×${Math.round(r.height)}`;
      inspector.style.display = 'block';
      inspector.style.left = `${Math.max(0, r.left)}px`;
      inspector.style.top = `${r.top > 24 ? r.top - 22 : r.bottom + 4}px`;
    };
    const onMove = (event: MouseEvent) => {
      const el = elementAt(event);
      if (el && el !== current) show(el);
    };
    const block = (event: Event) => {
      event.preventDefault();
      event.stopPropagation();
      event.stopImmediatePropagation();
    };
    const onClick = (event: MouseEvent) => {
      block(event);
      const el = elementAt(event) ?? current;
      if (!el) return;
      const role = roleOf(el);
      const name = nameOf(el, role);
      const picked = {
        picked: true as const,
        selector: selectorFor(el),
        ref: refFor(el),
        tag: el.localName,
        ...(role ? { role } : {}),
        ...(name ? { name } : {}),
        text: clip(normalize((el as HTMLElement).innerText ?? el.textContent), 300),
        rect: rectOf(el),
      };
      // the page gets its mouse back at once; the answer follows when the source is known
      cleanup();
      void resolveSource(el, root).then((source) => finish({ ...picked, ...(source ? { source } : {}) }));
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      block(event);
      finish({ picked: false, reason: 'cancelled' });
    };
    const blocked = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'dblclick', 'contextmenu', 'auxclick'];
    const finish = (result: PickResult) => {
      cleanup();
      resolve(result);
    };
    const cleanup = () => {
      cancelActive = undefined;
      clearTimeout(timer);
      for (const win of windows) {
        win.removeEventListener('mousemove', onMove, true);
        win.removeEventListener('click', onClick, true);
        win.removeEventListener('keydown', onKey, true);
        for (const type of blocked) win.removeEventListener(type, block, true);
      }
      highlight.remove();
      inspector.remove();
      banner.remove();
      document.documentElement.style.cursor = cursor;
    };
    const timer = setTimeout(() => finish({ picked: false, reason: 'timeout' }), timeoutMs);
    cancelActive = (reason) => finish({ picked: false, reason });
    // same-origin iframes are part of what the person sees: hover, click and Esc work inside them too
    const windows = sameOriginWindows();
    for (const win of windows) {
      win.addEventListener('mousemove', onMove, true);
      win.addEventListener('click', onClick, true);
      win.addEventListener('keydown', onKey, true);
      for (const type of blocked) win.addEventListener(type, block, true);
    }
  });
}
