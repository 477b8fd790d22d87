import { useState } from 'react';

/** The window's own preferences, kept in this browser (localStorage): they belong to the human's screen. */
export interface Settings {
  /** a short chime when a new ask arrives */
  sound: boolean;
  /** a browser notification when a new ask arrives while the window is not in front */
  notify: boolean;
}

const KEY = 'aiti.settings';
const DEFAULTS: Settings = { sound: false, notify: false };

function load(): Settings {
  try {
    const raw = localStorage.getItem(KEY);
    const saved = raw ? (JSON.parse(raw) as Partial<Settings>) : {};
    return {
      sound: typeof saved.sound === 'boolean' ? saved.sound : DEFAULTS.sound,
      notify: typeof saved.notify === 'boolean' ? saved.notify : DEFAULTS.notify,
    };
  } catch {
    return DEFAULTS;
  }
}

export function useSettings(): [Settings, (change: Partial<Settings>) => void] {
  const [settings, setSettings] = useState(load);
  const update = (change: Partial<Settings>) =>
    setSettings((current) => {
      const next = { ...current, ...change };
      try {
        localStorage.setItem(KEY, JSON.stringify(next));
      } catch {
        // storage disabled: the setting lasts as long as the tab
      }
      return next;
    });
  return [settings, update];
}
