import { useEffect, useRef } from 'react';
import { jumpTo } from '../cards/OpenStrip.js';
import { t } from '../i18n/index.js';
import type { OpenAsk } from '../store.js';
import type { Settings, SoundName } from './settings.js';

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

/** Each sound as tones: frequency (Hz), start (s), length (s). Made on the spot: no sound file to load. */
const TONES: Record<SoundName, Array<[number, number, number]>> = {
  chime: [
    [880, 0, 0.3],
    [1320, 0.12, 0.3],
  ],
  bell: [
    [660, 0, 0.9],
    [1320, 0, 0.6],
  ],
  pop: [[520, 0, 0.12]],
  ping: [
    [1760, 0, 0.18],
    [1760, 0.22, 0.18],
  ],
};

/** Plays `name` at `volume` (0–1), once the human has touched the window (unlockSound). */
export function chime(name: SoundName = 'chime', volume = 0.6): void {
  if (!audio || audio.state !== 'running' || volume <= 0) return;
  const start = audio.currentTime;
  const peak = 0.25 * Math.min(1, volume);
  for (const [frequency, at, length] of TONES[name]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, start + at);
    gain.gain.exponentialRampToValueAtTime(peak, start + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(start + at);
    tone.stop(start + at + length + 0.05);
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
    if (settings.sound) chime(settings.soundName, settings.volume);
    if (settings.notify && (document.hidden || !document.hasFocus())) fresh.forEach(notifyOf);
  }, [asks, generation, settings, enabled]);
}
