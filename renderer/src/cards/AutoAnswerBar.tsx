import { useEffect, useRef } from 'react';
import { useT } from '../i18n/index.js';
import type { OpenAsk } from '../store.js';
import { useNow } from '../useNow.js';
import type { AutoAnswer } from './auto-answer.js';
import { replyText } from './outcome.js';
import { formatRemaining } from './Countdown.js';

/**
 * What an untouched card will answer by itself, and when (the human's own opt-in rule, Settings): the time left
 * counts from when the agent asked, and one press calls it off. Nothing is sent while the card is paused.
 */
export function AutoAnswerBar(props: { ask: OpenAsk; auto: AutoAnswer; onCancel(): void; onDue(): void }) {
  const { ask, auto, onCancel, onDue } = props;
  const words = useT().cards;
  useNow(500);
  const dueAt = Date.parse(ask.createdAt) + auto.rule.afterS * 1000;
  const left = Math.max(0, dueAt - Date.now());
  const sent = useRef(false);
  const due = useRef(onDue);
  due.current = onDue;
  useEffect(() => {
    if (left > 0 || sent.current) return;
    sent.current = true;
    due.current();
  }, [left]);
  return (
    <p className="auto-answer">
      <span>{words.autoAnswer(replyText(ask.kind, auto.value), formatRemaining(left))}</span>
      <button type="button" className="button ghost small" data-action onClick={onCancel}>
        {words.autoCancel}
      </button>
    </p>
  );
}
