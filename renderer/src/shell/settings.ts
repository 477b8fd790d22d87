import { useState } from 'react';

/** The chimes a new ask can make (alerts.ts plays them; no file to load). */
export const SOUNDS = ['chime', 'bell', 'pop', 'ping'] as const;
export type SoundName = (typeof SOUNDS)[number];

/** The kinds of ask an auto-answer rule may answer: never a page command (it runs code) nor a pick on the page. */
export const AUTO_KINDS = ['user_confirm', 'user_choose', 'user_input', 'user_presence'] as const;
export type AutoKind = (typeof AUTO_KINDS)[number];

/**
 * An opt-in auto-answer: a card of this agent (`*` any) and kind that nobody touched gets `reply` once it has
 * been open `afterS` seconds. For a confirm the reply is `yes` or `no`, for presence `present` or `away`, for a
 * choose one of its choices (a card without that choice waits for the human), for an input the text.
 */
export interface AutoRule {
  id: string;
  agent: string;
  kind: AutoKind;
  afterS: number;
  reply: string;
}

/** The window's own preferences, kept in this browser (localStorage): they belong to the human's screen. */
export interface Settings {
  /** a short sound when a new ask arrives */
  sound: boolean;
  soundName: SoundName;
  /** 0 to 1 */
  volume: number;
  /** a browser notification when a new ask arrives while the window is not in front */
  notify: boolean;
  autoRules: AutoRule[];
}

const KEY = 'aiti.settings';
const DEFAULTS: Settings = { sound: false, soundName: 'chime', volume: 0.6, notify: false, autoRules: [] };

const isRule = (r: unknown): r is AutoRule => {
  if (typeof r !== 'object' || r === null) return false;
  const rule = r as Partial<AutoRule>;
  return (
    typeof rule.id === 'string' &&
    typeof rule.agent === 'string' &&
    (AUTO_KINDS as readonly unknown[]).includes(rule.kind) &&
    typeof rule.afterS === 'number' &&
    rule.afterS > 0 &&
    typeof rule.reply === 'string'
  );
};

function load(): Settings {
  try {
    const raw = localStorage.getItem(KEY);
    const saved = raw ? (JSON.parse(raw) as Partial<Settings>) : {};
    return {
      sound: typeof saved.sound === 'boolean' ? saved.sound : DEFAULTS.sound,
      soundName: (SOUNDS as readonly unknown[]).includes(saved.soundName) ? (saved.soundName as SoundName) : 'chime',
      volume:
        typeof saved.volume === 'number' && saved.volume >= 0 && saved.volume <= 1 ? saved.volume : DEFAULTS.volume,
      notify: typeof saved.notify === 'boolean' ? saved.notify : DEFAULTS.notify,
      autoRules: Array.isArray(saved.autoRules) ? saved.autoRules.filter(isRule) : [],
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
