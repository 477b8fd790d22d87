/**
 * What the window expects from its host. In the desktop app the preload exposes `window.aiti` (named methods
 * only, contextIsolation on; electron/channels.ts `AitiDesktopApi` implements this shape, checked at compile time by
 * test/shell/host-contract.test.ts); in a plain browser
 * there is no host and the token comes from `#token=` in the URL.
 *
 * - `token()`: the human's token (the desktop app rejects when the bridge on the port could not prove it holds it);
 * - `hostInfo()`: the desktop shell's global shortcut (shown in the window) and why it failed, if it did, and
 *   the notices the window shows about the desktop (no Node for the shim, no tray: how to quit …);
 * - `onCompose(listener)`: the global shortcut or the tray fired: focus the composer addressed to `to`;
 *   without a preload, the same happens on an `aiti:compose` window event (`detail: {to}`) or a `#compose`
 *   (or `#compose=<agentId>`) hash;
 * - `onOpenAsk(listener)`: a notification was clicked: bring that ask's card into view;
 * - `onHostChange(listener)`: what `hostInfo()` answers changed (say, notifications started failing): ask again.
 */
export interface AitiHost {
  token(): Promise<string> | string;
  hostInfo?(): Promise<{
    platform: string;
    shortcut: string;
    shortcutProblem?: string;
    notices?: Array<{ level: 'warning' | 'info'; text: string }>;
  }>;
  onCompose?(listener: (request: { to: string }) => void): (() => void) | void;
  onOpenAsk?(listener: (request: { askId: string }) => void): (() => void) | void;
  onHostChange?(listener: () => void): (() => void) | void;
}

declare global {
  interface Window {
    aiti?: AitiHost;
  }
}

const TOKEN_KEY = 'aiti.token';

export function host(): AitiHost | undefined {
  return typeof window.aiti === 'object' && typeof window.aiti.token === 'function' ? window.aiti : undefined;
}

/** `#token=…&compose` → its parts. */
function hashParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.replace(/^#/, ''));
}

/** Removes `name` (and its value) from the hash, leaving the rest as written, without a history entry. */
function dropHashParam(name: string): void {
  const rest = window.location.hash
    .replace(/^#/, '')
    .split('&')
    .filter((part) => part && part !== name && !part.startsWith(`${name}=`))
    .join('&');
  window.history.replaceState(null, '', window.location.pathname + window.location.search + (rest ? `#${rest}` : ''));
}

/**
 * The token: from the host, else from `#token=` (then removed from the address bar and kept in sessionStorage
 * so a reload still works), else from sessionStorage.
 */
export async function resolveToken(): Promise<string | undefined> {
  const fromHost = host();
  if (fromHost) return await fromHost.token();
  const params = hashParams();
  const fromHash = params.get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    dropHashParam('token');
    return fromHash;
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

/** Forget a token the bridge refused, so the next load asks for a fresh link. */
export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** Where the bridge's API lives, ending in `/`: derived from where the window is served (`/aiti/ui/` → `/aiti/`). */
export function apiBase(): string {
  return new URL('..', window.location.href).href;
}

/** Calls `listener` whenever the shell, an `aiti:compose` event or a `#compose` hash asks for the composer. */
export function onComposeRequest(listener: (to: string) => void): () => void {
  const onEvent = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    const to =
      detail && typeof detail === 'object' && 'to' in detail && typeof detail.to === 'string' ? detail.to : 'all';
    listener(to);
  };
  const onHash = () => {
    const params = hashParams();
    if (!params.has('compose')) return;
    listener(params.get('compose') || 'all');
    dropHashParam('compose');
  };
  window.addEventListener('aiti:compose', onEvent);
  window.addEventListener('hashchange', onHash);
  onHash();
  const unhost = host()?.onCompose?.((request) => listener(request.to || 'all'));
  return () => {
    window.removeEventListener('aiti:compose', onEvent);
    window.removeEventListener('hashchange', onHash);
    if (typeof unhost === 'function') unhost();
  };
}

/** Calls `listener` with the askId whose card the shell wants shown (a clicked notification). */
export function onOpenAskRequest(listener: (askId: string) => void): () => void {
  const unhost = host()?.onOpenAsk?.((request) => listener(request.askId));
  return () => {
    if (typeof unhost === 'function') unhost();
  };
}
