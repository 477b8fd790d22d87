/**
 * The IPC contract between the main process and the window's preload: one channel per named method.
 * Shared by electron/main modules and electron/preload.ts; no imports, so any side may read it.
 */
export enum Channel {
  /** renderer → main (invoke): the human's token, so it never travels in the window's URL */
  Token = 'aiti:token',
  /** renderer → main (invoke): what the desktop host offers (platform, the global shortcut and its state) */
  HostInfo = 'aiti:host-info',
  /** main → renderer: open the push composer addressed to `to` ("all" or an agentId) */
  Compose = 'aiti:compose',
  /** main → renderer: show the card of one ask (a notification was clicked) */
  OpenAsk = 'aiti:open-ask',
  /** main → renderer: what HostInfo answers changed (notifications started failing): ask for it again */
  HostChanged = 'aiti:host-changed',
}

export interface ComposeRequest {
  to: string;
}

export interface OpenAskRequest {
  askId: string;
}

/** Something about the desktop the human should read in the window: a problem to fix, or how things work here. */
export interface HostNotice {
  level: 'warning' | 'info';
  text: string;
}

export interface HostInfo {
  platform: string;
  /** the accelerator that opens the composer, e.g. "CommandOrControl+Shift+Space" */
  shortcut: string;
  /** set when the shortcut could not be registered (another app holds it, or it is not a valid accelerator) */
  shortcutProblem?: string;
  /** e.g. no Node for the registered shim, no tray on this desktop (how to quit), Wayland's shortcut portal */
  notices: HostNotice[];
}

/**
 * What the preload exposes as `window.aiti` in the desktop app (absent in a browser, where the token comes from
 * `#token=` in the URL). Every listener registration returns a function that removes it.
 */
export interface AitiDesktopApi {
  /** rejects when the bridge on the port could not prove, just now, that it holds the token */
  token(): Promise<string>;
  hostInfo(): Promise<HostInfo>;
  onCompose(listener: (request: ComposeRequest) => void): () => void;
  onOpenAsk(listener: (request: OpenAskRequest) => void): () => void;
  onHostChange(listener: () => void): () => void;
}
