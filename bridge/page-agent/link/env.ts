import { isA } from '../dom/realm.js';

/** Where the bridge is and which page this is: read once when the script loads. */
export interface BridgeEndpoint {
  /** e.g. http://127.0.0.1:8777 — routes are `${base}/bridge/…` */
  base: string;
  /** the project root the Vite plugin announced, to make data-source paths absolute */
  root?: string;
}

const DEFAULT_BASE = 'http://127.0.0.1:8777';

/** The bridge URL comes from the script's own src (`…/aiti/page.js`), so one tag is the whole setup. */
export function findBridge(script: HTMLOrSVGScriptElement | null): BridgeEndpoint {
  const element = isA(script, HTMLScriptElement)
    ? script
    : document.querySelector<HTMLScriptElement>('script[src*="/page.js"][src*="aiti"], script[data-aiti-bridge]');
  const explicit = element?.dataset.aitiBridge;
  const root = element?.dataset.aitiRoot || undefined;
  if (explicit) return { base: explicit.replace(/(?<!\/)\/+$/, ''), root };
  if (element?.src) {
    const url = new URL(element.src, location.href);
    const path = url.pathname.replace(/\/(aiti\/)?page\.js$/, '');
    return { base: `${url.origin}${path}`, root };
  }
  return { base: DEFAULT_BASE, root };
}

export function randomId(): string {
  if (typeof crypto.randomUUID === 'function' && isSecureContext) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A page that is the top of its tab (iframes register as frames of the top page instead). */
export function isTopWindow(): boolean {
  try {
    return window.top === window;
  } catch {
    return false;
  }
}
