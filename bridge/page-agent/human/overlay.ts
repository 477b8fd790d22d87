import { isA } from '../dom/realm.js';

/**
 * The agent's own UI on the page (picker highlight, toasts, the gesture button) lives in one shadow root on an
 * `<aiti-overlay>` host, so page styles do not reach it and snapshots skip it.
 */
let root: ShadowRoot | undefined;

const CSS = `
:host { all: initial; }
.toasts { position: fixed; right: 16px; bottom: 16px; z-index: 2147483647; display: flex; flex-direction: column;
  gap: 8px; font: 13px/1.4 system-ui, sans-serif; max-width: 360px; }
.toast { background: #1f2937; color: #f9fafb; border-radius: 8px; padding: 10px 12px; box-shadow: 0 4px 16px #0004; }
.toast b { display: block; margin-bottom: 2px; }
.toast button, .gesture button { font: inherit; margin-top: 8px; border: 0; border-radius: 6px; padding: 6px 10px;
  background: #6366f1; color: white; cursor: pointer; }
.highlight { position: fixed; pointer-events: none; z-index: 2147483646; background: #6366f133;
  outline: 2px solid #6366f1; border-radius: 2px; display: none; }
.inspector { position: fixed; pointer-events: none; z-index: 2147483647; background: #111827; color: #e5e7eb;
  font: 12px/1.3 ui-monospace, monospace; padding: 4px 6px; border-radius: 4px; display: none; white-space: nowrap; }
.banner { position: fixed; top: 12px; left: 50%; transform: translateX(-50%); z-index: 2147483647; pointer-events: none;
  background: #111827; color: #f9fafb; font: 14px/1.4 system-ui, sans-serif; padding: 8px 14px; border-radius: 8px;
  box-shadow: 0 4px 16px #0005; }
`;

export function overlayRoot(): ShadowRoot {
  if (root?.host.isConnected) return root;
  const host = document.createElement('aiti-overlay');
  host.setAttribute('aria-hidden', 'false');
  root = host.attachShadow({ mode: 'open' });
  const style = document.createElement('style');
  style.textContent = CSS;
  root.append(style);
  (document.body ?? document.documentElement).append(host);
  return root;
}

export function isOverlay(node: EventTarget | null): boolean {
  return isA(node, Element) && node.localName === 'aiti-overlay';
}

function toastList(): HTMLElement {
  const shadow = overlayRoot();
  let list = shadow.querySelector<HTMLElement>('.toasts');
  if (!list) {
    list = document.createElement('div');
    list.className = 'toasts';
    list.setAttribute('role', 'status');
    shadow.append(list);
  }
  return list;
}

/** A small card in the corner; returns it so callers can add a button or remove it early. */
export function toast(body: string, options: { title?: string; ms?: number } = {}): HTMLElement {
  const card = document.createElement('div');
  card.className = 'toast';
  if (options.title) {
    const title = document.createElement('b');
    title.textContent = options.title;
    card.append(title);
  }
  card.append(document.createTextNode(body));
  toastList().append(card);
  if (options.ms !== 0) setTimeout(() => card.remove(), options.ms ?? 6000);
  return card;
}
