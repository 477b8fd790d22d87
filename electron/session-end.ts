/** The parts of Electron's powerMonitor the shell uses. */
export interface ShellPowerMonitor {
  /** Linux and macOS: the system is about to shut down or reboot; preventDefault() asks it to wait for us */
  on(event: 'shutdown', listener: (event?: { preventDefault(): void }) => void): unknown;
}

/** The window's Windows-only event: the user logs off or the machine shuts down, and it cannot be stopped. */
export interface SessionEndWindow {
  on(event: 'session-end', listener: () => void): unknown;
}

export interface SessionEndDeps {
  window: SessionEndWindow;
  powerMonitor: ShellPowerMonitor;
  /** closes the bridge (its open asks are answered first); the same promise however often it is called */
  closeBridge(): Promise<void>;
  quit(): void;
}

/**
 * Logoff and shutdown end the app without `before-quit` or `will-quit` (Electron's docs), so the bridge would
 * never close and its open asks never be answered. On Windows the window's `session-end` closes it; on Linux
 * and macOS powerMonitor's `shutdown` does, after asking the system to wait (preventDefault) — then the app quits.
 */
export function setupSessionEnd(deps: SessionEndDeps): void {
  const end = () => void deps.closeBridge().finally(deps.quit);
  deps.window.on('session-end', end);
  deps.powerMonitor.on('shutdown', (event) => {
    event?.preventDefault();
    end();
  });
}
