/** An event the system lets the app hold up: preventDefault() asks it to wait for us. */
export interface DelayableEvent {
  preventDefault(): void;
}

/** The parts of Electron's powerMonitor the shell uses. */
export interface ShellPowerMonitor {
  /** Linux and macOS: the system is about to shut down or reboot */
  on(event: 'shutdown', listener: (event?: DelayableEvent) => void): unknown;
}

/** The window's Windows-only events of a logoff, a restart or a shutdown. */
export interface SessionEndWindow {
  /** the session is about to end: preventDefault() holds it up while the app closes (WM_QUERYENDSESSION) */
  on(event: 'query-session-end', listener: (event: DelayableEvent) => void): unknown;
  /** the session ends now and cannot be stopped (WM_ENDSESSION) */
  on(event: 'session-end', listener: (event: DelayableEvent) => void): unknown;
}

export interface SessionEndDeps {
  window: SessionEndWindow;
  powerMonitor: ShellPowerMonitor;
  /** closes the bridge (its open asks are answered first); the same promise however often it is called */
  closeBridge(): Promise<void>;
  /** app.quit(): the app is quitting from this call on, and its will-quit waits for closeBridge() */
  quit(): void;
}

/**
 * Logoff and shutdown end the app without `before-quit` or `will-quit` of their own (Electron's docs), and since
 * Electron 44 Windows' `session-end` is followed by the process being terminated the moment its handlers return,
 * unless the app is already quitting. So each of these events starts closing the bridge and quits at once, in
 * the handler: the app is quitting before the handler returns, and its will-quit holds the exit until the bridge
 * has answered its open asks (`cancelled`). Where the system can wait — Windows' `query-session-end`, powerMonitor's
 * `shutdown` on Linux and macOS — the app asks it to (preventDefault) first.
 */
export function setupSessionEnd(deps: SessionEndDeps): void {
  const end = () => {
    void deps.closeBridge();
    deps.quit();
  };
  deps.window.on('query-session-end', (event) => {
    event.preventDefault();
    end();
  });
  deps.window.on('session-end', end);
  deps.powerMonitor.on('shutdown', (event) => {
    event?.preventDefault();
    end();
  });
}
