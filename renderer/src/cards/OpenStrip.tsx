import { useEffect, useRef } from 'react';
import { AgentName } from '../AgentName.js';
import { isTyping } from '../keys.js';
import { remainingNow, type OpenAsk } from '../store.js';
import { useNow } from '../useNow.js';
import { formatRemaining } from './Countdown.js';
import { useT } from '../i18n/index.js';
import { kindLabel } from './options.js';
import { showCard } from './on-screen.js';

/** The open asks soonest to run out first; paused ones (they do not run out) after every running one. */
export function bySoonest(asks: readonly OpenAsk[], now: number): OpenAsk[] {
  const left = (a: OpenAsk) => (a.paused ? Number.POSITIVE_INFINITY : remainingNow(a, now));
  return [...asks].sort((a, b) => left(a) - left(b) || (a.createdAt < b.createdAt ? -1 : 1));
}

/** Brings an ask's card into view and gives it the keys (a focused card is the active one). */
export function jumpTo(askId: string): void {
  const card = Array.from(document.querySelectorAll<HTMLElement>('.card:not(.ended)[data-ask-id]')).find(
    (el) => el.dataset.askId === askId,
  );
  showCard(card);
  card?.focus({ preventScroll: true });
}

/**
 * Every open ask in one line above the list — agent · kind · time left, soonest first — so the one about to
 * run out is in view while the human types a long answer elsewhere. A click, or J (again for the next one),
 * jumps to its card.
 */
export function OpenStrip({ asks, active }: { asks: readonly OpenAsk[]; active?: string | undefined }) {
  const words = useT().strip;
  const now = useNow(
    500,
    asks.some((a) => !a.paused),
  );
  const order = bySoonest(asks, now);
  const latest = useRef({ order, active });
  latest.current = { order, active };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'j' || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTyping(event.target) || document.querySelector('dialog[open]')) return;
      const { order: list, active: current } = latest.current;
      if (!list.length) return;
      event.preventDefault();
      const at = list.findIndex((a) => a.askId === current);
      const next = list[at < 0 ? 0 : (at + 1) % list.length];
      if (next) jumpTo(next.askId);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  // shown from the first ask on, so a second one never pushes the cards down
  if (!asks.length) return null;
  return (
    <nav className="open-strip" aria-label={words.label}>
      <span className="strip-hint">
        <kbd>J</kbd> {words.next}
      </span>
      <ol>
        {order.map((ask) => {
          const left = remainingNow(ask, now);
          const urgency = ask.paused ? 'paused' : left <= 10_000 ? 'urgent' : left <= 30_000 ? 'soon' : 'calm';
          return (
            <li key={ask.askId}>
              <button
                type="button"
                className={`strip-ask ${urgency}${ask.askId === active ? ' is-active' : ''}${ask.async ? ' is-async' : ''}`}
                aria-current={ask.askId === active ? 'true' : undefined}
                onClick={() => jumpTo(ask.askId)}
              >
                <AgentName agentId={ask.agentId} />
                <span className="strip-kind">{kindLabel(ask.kind)}</span>
                <span className="strip-time">
                  {ask.paused ? words.paused(formatRemaining(left)) : formatRemaining(left)}
                </span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
