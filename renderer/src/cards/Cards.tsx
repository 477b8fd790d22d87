import { useCallback, useEffect, useRef } from 'react';
import type { AnswerBody, SessionRow } from '../../../bridge/protocol/index.js';
import { isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { shortUrl } from '../time.js';
import { AskCard } from './AskCard.js';

interface CardsProps {
  asks: OpenAsk[];
  pages: SessionRow[];
  send(body: AnswerBody): Promise<void>;
}

/**
 * The open asks, newest first. A key pressed outside every card and outside any text field goes to the
 * newest card, so answering needs no mouse at all.
 */
export function Cards({ asks, pages, send }: CardsProps) {
  const handlers = useRef(new Map<string, (event: KeyboardEvent) => void>());
  const register = useCallback((askId: string, handler: ((event: KeyboardEvent) => void) | undefined) => {
    if (handler) handlers.current.set(askId, handler);
    else handlers.current.delete(askId);
  }, []);
  const newest = asks[0]?.askId;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || !newest || isTyping(event.target)) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.closest('.card, form, [role="dialog"]')) return;
      if (target instanceof HTMLButtonElement && event.key === 'Enter') return;
      handlers.current.get(newest)?.(event);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [newest]);

  const pageLabel = (ask: OpenAsk) => {
    const url = ask.pageUrl ?? pages.find((p) => p.pageId === ask.pageId && p.frameId === 'main')?.url;
    return url ? shortUrl(url) : ask.pageId;
  };

  if (!asks.length) return null;
  return (
    <section className="cards" aria-label="open asks">
      <h2 className="section-title">
        Waiting for you <span className="count">{asks.length}</span>
      </h2>
      {asks.map((ask) => (
        <AskCard key={ask.askId} ask={ask} pageLabel={pageLabel(ask)} send={send} registerKeys={register} />
      ))}
    </section>
  );
}
