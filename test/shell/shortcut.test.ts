import { describe, expect, it } from 'vitest';
import { chooseShortcut, DEFAULT_SHORTCUT, setupShortcut } from '../../electron/shortcut.js';

const SETTINGS = '/home/me/.config/aiti-bridge/desktop.json';

/** Electron's globalShortcut as another app may leave it: some keys are already held. */
function fakeGlobalShortcut(heldByOthers: string[] = []) {
  const registered = new Map<string, () => void>();
  return {
    registered,
    register(accelerator: string, callback: () => void): boolean {
      if (!/^[A-Za-z]+(\+[A-Za-z0-9]+)*$/.test(accelerator)) throw new Error(`conversion failure: ${accelerator}`);
      if (heldByOthers.includes(accelerator) || registered.has(accelerator)) return false;
      registered.set(accelerator, callback);
      return true;
    },
    press(accelerator: string) {
      registered.get(accelerator)?.();
    },
  };
}

describe('the global shortcut', () => {
  it('defaults to CommandOrControl+Shift+Space; AITI_SHORTCUT beats the setting, which beats the default', () => {
    expect(chooseShortcut({}, undefined, SETTINGS)).toEqual({ accelerator: DEFAULT_SHORTCUT, source: 'the default' });
    expect(DEFAULT_SHORTCUT).toBe('CommandOrControl+Shift+Space');
    expect(chooseShortcut({}, 'Alt+Shift+A', SETTINGS)).toEqual({ accelerator: 'Alt+Shift+A', source: SETTINGS });
    expect(chooseShortcut({ AITI_SHORTCUT: 'Control+F12' }, 'Alt+Shift+A', SETTINGS)).toEqual({
      accelerator: 'Control+F12',
      source: 'AITI_SHORTCUT',
    });
  });

  it('opens the composer when pressed', () => {
    const globalShortcut = fakeGlobalShortcut();
    let composed = 0;
    const state = setupShortcut({
      globalShortcut,
      choice: chooseShortcut({}, undefined, SETTINGS),
      settingsFile: SETTINGS,
      onPress: () => composed++,
    });
    expect(state).toEqual({ accelerator: DEFAULT_SHORTCUT });
    globalShortcut.press(DEFAULT_SHORTCUT);
    expect(composed).toBe(1);
  });

  it('says clearly when another app holds the key, and how to pick another', () => {
    const state = setupShortcut({
      globalShortcut: fakeGlobalShortcut([DEFAULT_SHORTCUT]),
      choice: chooseShortcut({}, undefined, SETTINGS),
      settingsFile: SETTINGS,
      onPress: () => undefined,
    });
    expect(state.problem).toBe(
      `the shortcut "CommandOrControl+Shift+Space" (from the default) is held by another app; set another with AITI_SHORTCUT or "shortcut" in ${SETTINGS}`,
    );
  });

  it('names an accelerator Electron cannot parse, and where it came from', () => {
    const state = setupShortcut({
      globalShortcut: fakeGlobalShortcut(),
      choice: chooseShortcut({ AITI_SHORTCUT: 'Ctrl+Shift+?!' }, undefined, SETTINGS),
      settingsFile: SETTINGS,
      onPress: () => undefined,
    });
    expect(state.problem).toMatch(/^the shortcut "Ctrl\+Shift\+\?!" \(from AITI_SHORTCUT\) is not a valid accelerator/);
    expect(state.problem).toContain('e.g. "CommandOrControl+Shift+Space"');
  });

  describe('on Wayland, through the desktop portal', () => {
    const composeCommand = '"/home/me/Apps/AITI Bridge.AppImage" --compose';

    it('says the desktop may ask once, and how to bind the key in its own settings if nothing happens', () => {
      const state = setupShortcut({
        globalShortcut: fakeGlobalShortcut(),
        choice: chooseShortcut({}, undefined, SETTINGS),
        settingsFile: SETTINGS,
        wayland: { composeCommand },
        onPress: () => undefined,
      });
      expect(state).toEqual({
        accelerator: DEFAULT_SHORTCUT,
        note: `On Wayland the desktop may ask you once to allow the shortcut "${DEFAULT_SHORTCUT}"; if pressing it does nothing, bind a key in your desktop's keyboard settings to run: ${composeCommand}`,
      });
    });

    it('a refused portal is a problem that names the command to bind instead', () => {
      const state = setupShortcut({
        globalShortcut: fakeGlobalShortcut([DEFAULT_SHORTCUT]),
        choice: chooseShortcut({}, undefined, SETTINGS),
        settingsFile: SETTINGS,
        wayland: { composeCommand },
        onPress: () => undefined,
      });
      expect(state.problem).toBe(
        `the shortcut "${DEFAULT_SHORTCUT}" (from the default) could not be registered: on Wayland global shortcuts go through the desktop's GlobalShortcuts portal, which this desktop refused or does not offer (KDE Plasma and GNOME 48+ have it); bind a key in your desktop's keyboard settings to run: ${composeCommand}`,
      );
    });
  });
});
