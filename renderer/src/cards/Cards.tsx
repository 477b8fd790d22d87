import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerBody, AskEnd, SessionRow } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';
import { isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { shortUrl } from '../time.js';
import { AskCard, SETTLE_MS } from './AskCard.js';
import type { PageLabel } from './CardSource.js';
import { EndedCard } from './EndedCard.js';
import { isOnScreen, showCard } from './on-screen.js';

/** The open card of an ask on screen (an ended card of the same ask does not count). */
function cardElement(askId: string): HTMLElement | null {
  const cards = document.querySelectorAll<HTMLElement>('.card:not(.ended)[data-ask-id]');
  return Array.from(cards).find((el) => el.dataset.askId === askId) ?? null;
}

interface CardsProps {
  asks: OpenAsk[];
  pages: SessionRow[];
  send(body: AnswerBody): Promise<void>;
  /** an ended card has had its moment: it goes (History keeps it) */
  onGone?(askId: string): void;
  /** how long a card must be on screen before the keyboard may answer it (tests pass 0) */
  settleMs?: number;
  /** the window has no bridge: cards show it and send nothing, drafts are kept */
  offline?: boolean;
  /** how History says each ask ended, for the cards that ended while the window had no connection */
  records?: ReadonlyMap<string, AskEnd>;
  /** the active card changed (the strip of open asks marks it) */
  onActive?(askId: string | undefined): void;
}

/** Keys that act on a card; anything else pressed outside the cards is none of their business. */
const CARD_KEY = /^([0-9]|Enter|Escape|[yYnNpP]|ArrowUp|ArrowDown)$/;

/**
 * The asks in arrival order (a new card joins at the end and never moves the one being read). One card at a
 * time is active, marked on screen, and only it takes the keys pressed outside every card. A card becomes
 * active when the human focuses or clicks it, moves to it with the arrow keys, or presses a key while no card
 * is active (then the first card that has been on screen long enough to be read; Enter then only selects it).
 * A new card never becomes active by itself, so a keystroke meant for one card never answers another.
 */
export function Cards(props: CardsProps) {
  const { asks, pages, send, onGone, settleMs = SETTLE_MS, offline = false, records, onActive } = props;
  const handlers = useRef(new Map<string, (event: KeyboardEvent) => void>());
  const firstSeen = useRef(new Map<string, number>());
  const [activeId, setActiveId] = useState<string>();
  const register = useCallback((askId: string, handler: ((event: KeyboardEvent) => void) | undefined) => {
    if (handler) handlers.current.set(askId, handler);
    else handlers.current.delete(askId);
  }, []);

  const live = asks.filter((a) => !a.ended);
  for (const ask of live) if (!firstSeen.current.has(ask.askId)) firstSeen.current.set(ask.askId, performance.now());
  // the active card ended: none is active until the human picks one (the next never takes over by itself)
  const active = live.some((a) => a.askId === activeId) ? activeId : undefined;

  useEffect(() => onActive?.(active), [active, onActive]);

  const latest = useRef({ live, active });
  latest.current = { live, active };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      if (!CARD_KEY.test(event.key) || isTyping(event.target)) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.card, form, [role="dialog"], .drawer')) return;
      // Enter on a button, link or tab elsewhere presses it (Space is no card key: it never gets here)
      if (target?.closest('button, a, summary, [role="tab"]') && event.key === 'Enter') return;
      const { live: cards, active: current } = latest.current;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (!cards.length) return;
        event.preventDefault();
        const at = cards.findIndex((a) => a.askId === current);
        const step = event.key === 'ArrowDown' ? 1 : -1;
        // from no active card (-1) either arrow goes to the first; ↑ on the first stays, ↓ past the last moves nothing
        const next = cards[Math.max(0, at + step)];
        if (next) {
          setActiveId(next.askId);
          showCard(cardElement(next.askId));
        }
        return;
      }
      // a live card registers its handler when it mounts; were one missing, the key would do nothing either way
      // Stryker disable next-line OptionalChaining: equivalent, see above
      if (current) return handlers.current.get(current)?.(event);
      const now = performance.now();
      // the first card the human has had time to read and can see now
      const first = cards.find(
        (a) => now - (firstSeen.current.get(a.askId) ?? now) >= settleMs && isOnScreen(cardElement(a.askId)),
      );
      if (!first) return;
      setActiveId(first.askId);
      // Enter with no active card only selects one: the human answers what they can see is selected
      if (event.key === 'Enter') return event.preventDefault();
      // Stryker disable next-line OptionalChaining: equivalent, as above
      handlers.current.get(first.askId)?.(event);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [settleMs]);

  const pageLabel = (ask: OpenAsk): PageLabel | undefined => {
    if (!ask.pageId && !ask.pageUrl) return undefined;
    const row = pages.find((p) => p.pageId === ask.pageId && p.frameId === 'main');
    const url = ask.pageUrl ?? row?.url;
    return { title: row?.title, url: url ? shortUrl(url) : ask.pageId };
  };

  if (!asks.length) return null;
  const words = t().cards;
  return (
    <section className="cards" aria-label={words.section}>
      <h2 className="section-title">
        {words.waiting} <span className="count">{live.length}</span>
        {live.length > 1 && <span className="muted section-hint">{active ? words.hintActive : words.hintNone}</span>}
      </h2>
      {asks.map((ask) =>
        ask.ended ? (
          <EndedCard
            key={ask.askId}
            ask={ask}
            pageLabel={pageLabel(ask)}
            {...(records?.get(ask.askId) ? { record: records.get(ask.askId) } : {})}
            onGone={() => onGone?.(ask.askId)}
          />
        ) : (
          <AskCard
            key={ask.askId}
            ask={ask}
            pageLabel={pageLabel(ask)}
            send={send}
            registerKeys={register}
            active={ask.askId === active}
            onActivate={() => setActiveId(ask.askId)}
            settleMs={settleMs}
            offline={offline}
          />
        ),
      )}
    </section>
  );
}
