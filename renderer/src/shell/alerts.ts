import { useEffect, useRef } from 'react';
import { jumpTo } from '../cards/OpenStrip.js';
import { t } from '../i18n/index.js';
import type { OpenAsk } from '../store.js';
import type { Settings } from './settings.js';

let audio: AudioContext | undefined;

/**
 * Browsers let a page make sound only after the human touched it: the audio context is made (or woken) on the
 * first key or click, then the chime can play when an ask arrives.
 */
export function unlockSound(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    // no Web Audio here: the window stays silent
  }
}

/** Two short soft tones, made on the spot (no sound file to load). */
export function chime(): void {
  if (!audio || audio.state !== 'running') return;
  const start = audio.currentTime;
  for (const [i, frequency] of [880, 1320].entries()) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + i * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + i * 0.12);
    tone.stop(start + i * 0.12 + 0.3);
  }
}

/** A notification for an ask; a click brings the window and that card to the front. */
function notifyOf(ask: OpenAsk): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  const body = ask.prompt.length > 140 ? `${ask.prompt.slice(0, 139)}…` : ask.prompt;
  const note = new Notification(t().alert.title(ask.agentId), { body, tag: ask.askId });
  note.onclick = () => {
    window.focus();
    jumpTo(ask.askId);
    note.close();
  };
}

/**
 * Sound and a browser notification for each new ask, as the settings say. Asks already open when the window
 * first connected are not new; asks that arrived while it was reconnecting are. The notification shows only
 * while the window is not in front (the card itself is the notice then).
 */
export function useAskAlerts(asks: readonly OpenAsk[], generation: number, settings: Settings, enabled: boolean): void {
  const seen = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    const open = asks.filter((a) => !a.ended);
    if (generation === 0) return;
    if (!seen.current) {
      seen.current = new Set(open.map((a) => a.askId));
      return;
    }
    const known = seen.current;
    const fresh = open.filter((a) => !known.has(a.askId));
    for (const ask of fresh) known.add(ask.askId);
    if (!fresh.length || !enabled) return;
    if (settings.sound) chime();
    if (settings.notify && (document.hidden || !document.hasFocus())) fresh.forEach(notifyOf);
  }, [asks, generation, settings, enabled]);
}
