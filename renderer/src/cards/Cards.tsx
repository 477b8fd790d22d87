import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AnswerBody, AskEnd, SessionRow } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';
import { isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { shortUrl } from '../time.js';
import { AskCard, SETTLE_MS } from './AskCard.js';
import type { PageLabel } from './CardSource.js';
import { EndedCard } from './EndedCard.js';
import { isOnScreen, showCard } from './on-screen.js';
import { cardField } from './focus.js';
import { useCardMotion } from './motion.js';
import type { AutoRule } from '../shell/settings.js';
import { ruleFor } from './auto-answer.js';

/** The open card of an ask on screen (an ended card of the same ask does not count). */
function cardElement(askId: string): HTMLElement | null {
  const cards = document.querySelectorAll<HTMLElement>('.card:not(.ended)[data-ask-id]');
  return Array.from(cards).find((el) => el.dataset.askId === askId) ?? null;
}

/** The card the keys now act on takes the focus, shown on screen: an input card's answer field, else the card. */
function focusCard(askId: string): void {
  const card = cardElement(askId);
  showCard(card);
  const field = card?.classList.contains('kind-user_input') ? cardField(card) : null;
  (field ?? card)?.focus({ preventScroll: true });
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
  /** the human's opt-in auto-answer rules (Settings) */
  autoRules?: readonly AutoRule[];
}

/** Whether an element lies wholly outside what the list's scroller shows (removing it moves nothing in view). */
function outOfView(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  const box = el.closest('.main-scroll')?.getBoundingClientRect();
  const top = Math.max(0, box?.top ?? 0);
  const bottom = Math.min(window.innerHeight, box?.bottom ?? window.innerHeight);
  return rect.bottom <= top || rect.top >= bottom;
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
  const { asks, pages, send, onGone, settleMs = SETTLE_MS, offline = false, records, onActive, autoRules = [] } = props;
  const section = useRef<HTMLElement>(null);
  const movedAgo = useCardMotion(section);
  // the list holds still under a resting pointer and while the human types in it: an ended card keeps its place
  // (and its height) until the pointer leaves the list and no field in it has the focus
  const [pointerIn, setPointerIn] = useState(false);
  const [typingIn, setTypingIn] = useState(false);
  const held = pointerIn || typingIn;
  const [due, setDue] = useState<ReadonlySet<string>>(new Set());
  const heights = useRef(new Map<string, number>());
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

  // each open card's height, so its ended card keeps it: answering one moves nothing below it
  useLayoutEffect(() => {
    for (const el of Array.from(section.current?.querySelectorAll<HTMLElement>('.card:not(.ended)[data-ask-id]') ?? []))
      heights.current.set(el.dataset.askId ?? '', el.getBoundingClientRect().height);
  });
  // ended cards whose moment is over leave when nothing under the hand moves for it: the list is not held, or
  // the card is out of view (above it, the scroller keeps what is in view where it was)
  useEffect(() => {
    if (!due.size) return;
    const leaving = [...due].filter((id) => {
      if (!held) return true;
      const el = section.current?.querySelector(`.card.ended[data-ask-id="${CSS.escape(id)}"]`);
      return !el || outOfView(el);
    });
    if (!leaving.length) return;
    setDue((current) => new Set([...current].filter((id) => !leaving.includes(id))));
    for (const id of leaving) {
      heights.current.delete(id);
      onGone?.(id);
    }
  }, [due, held, onGone]);
  // a scroll may take a waiting ended card out of view
  useEffect(() => {
    if (!due.size || !held) return;
    const scroller = section.current?.closest('.main-scroll');
    const recheck = () => setDue((current) => new Set(current));
    scroller?.addEventListener('scroll', recheck, { passive: true });
    return () => scroller?.removeEventListener('scroll', recheck);
  }, [due, held]);
  const latest = useRef({ live, active });
  latest.current = { live, active };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      // a modal dialog (Settings) has the keyboard: nothing behind it acts
      if (document.querySelector('dialog[open]')) return;
      if (!CARD_KEY.test(event.key) || isTyping(event.target)) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.card, form, dialog, [role="dialog"], [role="region"], .drawer')) return;
      // Enter on a button, link or tab elsewhere presses it (Space is no card key: it never gets here)
      if (target?.closest('button, a, summary, [role="tab"]') && event.key === 'Enter') return;
      const { live: cards, active: current } = latest.current;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        if (!cards.length) return;
        event.preventDefault();
        latestMove.current(event.key === 'ArrowDown' ? 1 : -1);
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
      focusCard(first.askId);
      // Enter with no active card only selects one: the human answers what they can see is selected
      if (event.key === 'Enter') return event.preventDefault();
      // Stryker disable next-line OptionalChaining: equivalent, as above
      handlers.current.get(first.askId)?.(event);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [settleMs]);

  /**
   * ↑ ↓: the next or previous card becomes the active one and takes the focus (an input card's answer field, so
   * what the human types next goes there). From no active card either arrow goes to the first; ↑ on the first
   * stays, ↓ past the last moves nothing.
   */
  const move = (step: number) => {
    const at = live.findIndex((a) => a.askId === active);
    const next = live[Math.max(0, at + step)];
    if (!next) return;
    setActiveId(next.askId);
    focusCard(next.askId);
  };
  const latestMove = useRef(move);
  latestMove.current = move;

  const pageLabel = (ask: OpenAsk): PageLabel | undefined => {
    if (!ask.pageId && !ask.pageUrl) return undefined;
    const row = pages.find((p) => p.pageId === ask.pageId && p.frameId === 'main');
    const url = ask.pageUrl ?? row?.url;
    return { title: row?.title, url: url ? shortUrl(url) : ask.pageId };
  };

  if (!asks.length) return null;
  const words = t().cards;
  return (
    <section
      className="cards"
      aria-label={words.section}
      ref={section}
      onPointerEnter={(e) => e.pointerType === 'mouse' && setPointerIn(true)}
      onPointerLeave={() => setPointerIn(false)}
      onFocus={(e) => setTypingIn(isTyping(e.target))}
      onBlur={(e) =>
        setTypingIn(section.current?.contains(e.relatedTarget as Node | null) ? isTyping(e.relatedTarget) : false)
      }
      data-held={held || undefined}
    >
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
            minHeight={heights.current.get(ask.askId)}
            waiting={due.has(ask.askId)}
            onGone={() => setDue((current) => new Set([...current, ask.askId]))}
            onDismiss={() => onGone?.(ask.askId)}
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
            movedAgo={movedAgo}
            onMove={move}
            autoRule={ruleFor(autoRules, ask)}
          />
        ),
      )}
    </section>
  );
}
