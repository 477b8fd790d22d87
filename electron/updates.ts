/** What the app uses of electron-updater's AppUpdater (typechecked against it in main.ts). */
export interface ShellUpdater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<unknown>;
  /** quits the app (will-quit still answers open asks) and runs the installer, which starts the new version */
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

/** How this copy of the app is updated. */
export type UpdateKind =
  /** it replaces itself: the Windows installer, the macOS app, an AppImage */
  | 'install'
  /** a deb or an rpm: the package manager owns the files, so the app only says a new version is out */
  | 'announce';

export interface UpdatesDeps {
  updater: ShellUpdater;
  kind: UpdateKind;
  currentVersion: string;
  /** where the human downloads a release by hand */
  releasesUrl: string;
  /** asks the human whether to install `version` now (a dialog); true to install */
  ask(version: string): Promise<boolean>;
  /** tells the human something (a notification) */
  tell(message: string): void;
  warn(message: string): void;
  /** runs `check` every `ms` milliseconds; returns how to stop (setInterval, unref'd) */
  every(ms: number, check: () => void): () => void;
}

export interface Updates {
  /** looks for a newer release now, asking before it installs one */
  check(): Promise<void>;
  stop(): void;
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Updates from the project's GitHub releases (electron-builder.yml `publish`): a look at start and once a day.
 * Nothing is downloaded or installed without asking: when a newer version is out the human is asked, and only a
 * yes downloads it and restarts into it (quitting answers open asks first, as any quit does). A "later" is asked
 * again at the next day's look. A deb or rpm install is told where the new version is instead. A look that fails
 * (offline, GitHub down) is only logged: the next one tries again.
 */
export function setupUpdates(deps: UpdatesDeps): Updates {
  const { updater } = deps;
  updater.autoDownload = false;
  // an update is installed when the human says so, never silently at the next quit
  updater.autoInstallOnAppQuit = false;
  const announced = new Set<string>();
  let busy = false;

  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      const found = await updater.checkForUpdates();
      if (!found?.isUpdateAvailable) return;
      const version = found.updateInfo.version;
      if (deps.kind === 'announce') {
        if (announced.has(version)) return;
        announced.add(version);
        deps.tell(
          `AITI Bridge ${version} is out (this is ${deps.currentVersion}): update it with your package manager, or download it from ${deps.releasesUrl}`,
        );
        return;
      }
      if (!(await deps.ask(version))) return;
      try {
        await updater.downloadUpdate();
        updater.quitAndInstall(false, true);
      } catch (error) {
        // the human asked for it: say it did not happen (an unsigned macOS build cannot update itself)
        deps.tell(
          `Installing AITI Bridge ${version} failed (${(error as Error).message}): download it from ${deps.releasesUrl}`,
        );
      }
    } catch (error) {
      deps.warn(`looking for updates failed: ${(error as Error).message}`);
    } finally {
      busy = false;
    }
  };

  const stop = deps.every(DAY_MS, () => void check());
  void check();
  return { check, stop };
}
