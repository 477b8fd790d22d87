export interface SingleInstanceDeps {
  app: {
    requestSingleInstanceLock(): boolean;
    on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
    quit(): void;
  };
  /** a second launch happened: bring the first one forward */
  onSecondInstance(argv: string[]): void;
}

/** Takes the single-instance lock; returns false (and quits) when another instance already runs. */
export function setupSingleInstance(deps: SingleInstanceDeps): boolean {
  if (!deps.app.requestSingleInstanceLock()) {
    deps.app.quit();
    return false;
  }
  deps.app.on('second-instance', (_event, argv) => deps.onSecondInstance(argv));
  return true;
}
