export const DEFAULT_SHORTCUT = 'CommandOrControl+Shift+Space';

export interface ShortcutChoice {
  accelerator: string;
  /** where it came from: "AITI_SHORTCUT", the settings file, or "the default" */
  source: string;
}

export interface ShortcutDeps {
  globalShortcut: {
    register(accelerator: string, callback: () => void): boolean;
  };
  choice: ShortcutChoice;
  /** the settings file, named in the message when the shortcut cannot be used */
  settingsFile: string;
  /**
   * set in a Wayland session: the command that opens the composer from outside (this app with --compose), which
   * the human can bind in the desktop's own keyboard settings when the portal gives no shortcut
   */
  wayland?: { composeCommand: string };
  onPress(): void;
}

export interface ShortcutState {
  accelerator: string;
  /** set when the shortcut is not active, with what to do about it */
  problem?: string;
  /** set when it may be active but nothing can confirm it (Wayland's portal answers later, if at all) */
  note?: string;
}

/** The accelerator to use: AITI_SHORTCUT, else the saved setting, else the default. */
export function chooseShortcut(
  env: NodeJS.ProcessEnv,
  saved: string | undefined,
  settingsFile: string,
): ShortcutChoice {
  const fromEnv = env.AITI_SHORTCUT?.trim();
  if (fromEnv) return { accelerator: fromEnv, source: 'AITI_SHORTCUT' };
  if (saved?.trim()) return { accelerator: saved.trim(), source: settingsFile };
  return { accelerator: DEFAULT_SHORTCUT, source: 'the default' };
}

/**
 * Registers the global shortcut. Electron's register returns false, silently, when another app holds the key,
 * and throws on an accelerator it cannot parse: both become a problem message instead.
 */
export function setupShortcut(deps: ShortcutDeps): ShortcutState {
  const { accelerator, source } = deps.choice;
  const change = `set another with AITI_SHORTCUT or "shortcut" in ${deps.settingsFile}`;
  let registered: boolean;
  try {
    registered = deps.globalShortcut.register(accelerator, deps.onPress);
  } catch (error) {
    return {
      accelerator,
      problem: `the shortcut "${accelerator}" (from ${source}) is not a valid accelerator: ${(error as Error).message}; ${change}, e.g. "${DEFAULT_SHORTCUT}"`,
    };
  }
  const wayland = deps.wayland;
  if (wayland) {
    // the desktop's keyboard settings can run the app with --compose: a shortcut that needs no portal
    const bind = `bind a key in your desktop's keyboard settings to run: ${wayland.composeCommand}`;
    if (!registered) {
      return {
        accelerator,
        problem: `the shortcut "${accelerator}" (from ${source}) could not be registered: on Wayland global shortcuts go through the desktop's GlobalShortcuts portal, which this desktop refused or does not offer (KDE Plasma and GNOME 48+ have it); ${bind}`,
      };
    }
    // register() only says the portal request was sent: the desktop may still ask, or refuse, out of sight
    return {
      accelerator,
      note: `On Wayland the desktop may ask you once to allow the shortcut "${accelerator}"; if pressing it does nothing, ${bind}`,
    };
  }
  if (!registered) {
    return {
      accelerator,
      problem: `the shortcut "${accelerator}" (from ${source}) is held by another app; ${change}`,
    };
  }
  return { accelerator };
}
