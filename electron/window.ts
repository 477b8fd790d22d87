import type { BrowserWindowConstructorOptions } from 'electron';
import { Channel, type ComposeRequest, type OpenAskRequest } from './channels.js';
import type { DelayableEvent } from './session-end.js';

/** The parts of a BrowserWindow's webContents the shell uses. */
export interface ShellWebContents {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isLoading(): boolean;
  once(event: 'did-finish-load', listener: () => void): unknown;
  on(event: 'will-navigate', listener: (event: { preventDefault(): void; url: string }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

/** The parts of a BrowserWindow the shell uses (Windows' session events: session-end.ts). */
export interface ShellWindow {
  readonly webContents: ShellWebContents;
  loadURL(url: string): Promise<void>;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isVisible(): boolean;
  isMinimized(): boolean;
  isFocused(): boolean;
  /** the taskbar button flashes (Windows), the window asks for attention (Linux) */
  flashFrame(flag: boolean): void;
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'query-session-end' | 'session-end', listener: (event: DelayableEvent) => void): unknown;
}

export interface WindowDeps {
  createWindow(options: BrowserWindowConstructorOptions): ShellWindow;
  /** Electron's shell.openExternal: links to the web open in the default browser */
  openExternal(url: string): Promise<void>;
  /** the renderer, served by the bridge: `${bridge.url}/aiti/ui/` (no token in it) */
  url: string;
  /** absolute path of dist/electron/preload.cjs */
  preload: string;
  icon?: string;
  /** true once the app is quitting: then closing the window really closes it */
  isQuitting(): boolean;
  /** start hidden in the tray (launched at login) */
  hidden?: boolean;
  /** set where there is no tray to bring a hidden window back from: closing the window quits the app instead */
  quitOnClose?(): void;
  onLoadError?(error: Error): void;
}

export interface WindowControl {
  readonly window: ShellWindow;
  show(): void;
  /** shows the window with the push composer addressed to `to` ("all" or an agentId) */
  compose(to: string): void;
  /** shows the window on the card of one ask */
  openAsk(askId: string): void;
  /** whether the human can see the window right now (visible and not minimized) */
  isShown(): boolean;
  /** tells the renderer that what HostInfo answers changed */
  hostChanged(): void;
}

/** The renderer's security settings: isolated, sandboxed, no Node, no webviews. */
export function windowOptions(deps: Pick<WindowDeps, 'preload' | 'icon'>): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 760,
    minWidth: 480,
    minHeight: 400,
    show: false,
    title: 'AITI Bridge',
    ...(deps.icon ? { icon: deps.icon } : {}),
    webPreferences: {
      preload: deps.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      // no spelling menu to use it with, and on Linux its dictionaries would come from Google's CDN
      spellcheck: false,
    },
  };
}

const isWebLink = (url: string) => /^https?:\/\//i.test(url);

/**
 * Creates the window on the bridge's renderer; closing it hides it to the tray (or quits, without a tray);
 * navigation stays on the window.
 */
export function setupWindow(deps: WindowDeps): WindowControl {
  const window = deps.createWindow(windowOptions(deps));
  const home = new URL(deps.url);
  const contents = window.webContents;

  contents.on('will-navigate', (event) => {
    const target = new URL(event.url, home);
    if (target.origin === home.origin && target.pathname.startsWith(home.pathname)) return;
    event.preventDefault();
    if (isWebLink(event.url)) void deps.openExternal(event.url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isWebLink(url)) void deps.openExternal(url);
    return { action: 'deny' };
  });
  window.on('close', (event) => {
    if (deps.isQuitting()) return;
    event.preventDefault();
    // quitting closes the bridge first (will-quit), then this window
    if (deps.quitOnClose) deps.quitOnClose();
    else window.hide();
  });

  const show = () => {
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  // a message sent while the renderer is still loading would be lost: wait for it
  const sendWhenLoaded = (channel: Channel, request?: ComposeRequest | OpenAskRequest) => {
    const send = () => (request ? contents.send(channel, request) : contents.send(channel));
    if (contents.isLoading()) contents.once('did-finish-load', send);
    else send();
  };

  window.loadURL(deps.url).then(
    () => {
      if (!deps.hidden) show();
    },
    (error: Error) => deps.onLoadError?.(error),
  );

  return {
    window,
    show,
    compose: (to) => {
      show();
      sendWhenLoaded(Channel.Compose, { to });
    },
    openAsk: (askId) => {
      show();
      sendWhenLoaded(Channel.OpenAsk, { askId });
    },
    isShown: () => window.isVisible() && !window.isMinimized(),
    hostChanged: () => sendWhenLoaded(Channel.HostChanged),
  };
}
