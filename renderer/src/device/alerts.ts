import { useEffect, useRef } from 'react';
import type { OpenAsk } from '../store.js';

/**
 * A phone in a pocket: each new ask chimes (Web Audio, once the human touched the page, as browsers require),
 * vibrates where the browser can, and shows a system notification while the window is in the background, once
 * the human allowed notifications (asked on their first touch). The question's text stays on the device.
 */
let audio: AudioContext | undefined;

function onFirstTouch(): void {
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume();
  } catch {
    // no Web Audio here: the phone stays silent
  }
  if (typeof Notification !== 'undefined' && Notification.permission === 'default')
    void Notification.requestPermission().catch(() => undefined);
}

function chime(): void {
  if (!audio || audio.state !== 'running') return;
  const start = audio.currentTime;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.frequency.value = 988;
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.35);
  tone.connect(gain).connect(audio.destination);
  tone.start(start);
  tone.stop(start + 0.4);
}

/** `generation`: how many `state` events came (0 before the first); `enabled` on a paired device's window. */
export function usePhoneAlerts(asks: readonly OpenAsk[], generation: number, enabled: boolean): void {
  const seen = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!enabled) return;
    document.addEventListener('pointerdown', onFirstTouch, { once: true });
    return () => document.removeEventListener('pointerdown', onFirstTouch);
  }, [enabled]);
  useEffect(() => {
    const open = asks.filter((a) => !a.ended);
    if (generation === 0) return;
    // the asks open when the window first connected are not news; those that came while it reconnected are
    if (!seen.current) {
      seen.current = new Set(open.map((a) => a.askId));
      return;
    }
    const known = seen.current;
    const fresh = open.filter((a) => !known.has(a.askId));
    for (const ask of fresh) known.add(ask.askId);
    if (!fresh.length || !enabled) return;
    chime();
    navigator.vibrate?.(200);
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted' || !document.hidden) return;
    for (const ask of fresh)
      new Notification(`${ask.agentId} asks`, { body: ask.prompt.slice(0, 140), tag: ask.askId });
  }, [asks, generation, enabled]);
}
