import { useEffect, useRef, useState } from 'react';
import { dropDraft, loadDraft, type Draft } from '../drafts.js';
import type { AskEnd } from '../../../bridge/protocol/index.js';
import type { OpenAsk } from '../store.js';
import { Markdown } from '../markdown/Markdown.js';
import { CardSource, type PageLabel } from './CardSource.js';
import { KIND_LABEL } from './options.js';
import { splitQuestion } from './Prompt.js';
import { decidedByText, outcomeLabel, valueText } from './outcome.js';

/** How long an ended card stays on screen with its outcome before it goes (History keeps it). */
export const LINGER_MS = 8000;

/** What the human had typed or picked and not sent, in words; empty when there is nothing. */
export function unsentDraft(ask: OpenAsk, draft: Draft): string {
  const parts: string[] = [];
  if (draft.text !== undefined && draft.text !== (ask.defaultValue ?? '') && draft.text.trim()) parts.push(draft.text);
  if (draft.note.trim()) parts.push(`note: ${draft.note}`);
  if (draft.reasonText.trim()) parts.push(`reason: ${draft.reasonText}`);
  return parts.join('\n');
}

/**
 * A card whose ask ended: it says how and who decided, then goes to History after a moment. A draft the human
 * had not sent is shown (with Copy) and keeps the card until they dismiss it, so nothing typed vanishes.
 */
export function EndedCard({
  ask,
  pageLabel,
  record,
  onGone,
}: {
  ask: OpenAsk;
  pageLabel?: PageLabel | undefined;
  /** how History says it ended, for an ask that ended while this window was not connected */
  record?: AskEnd;
  onGone(): void;
}) {
  const ended = ask.ended && !ask.ended.outcome && record ? { ...ask.ended, outcome: record } : ask.ended;
  const [draft] = useState(() => unsentDraft(ask, loadDraft(ask.askId)));
  const [copied, setCopied] = useState(false);
  const here = ended?.here ?? false;
  const keep = !here && draft !== '';
  const gone = useRef(onGone);
  gone.current = onGone;
  useEffect(() => {
    if (keep) return;
    const timer = setTimeout(() => {
      dropDraft(ask.askId);
      gone.current();
    }, LINGER_MS);
    return () => clearTimeout(timer);
  }, [keep, ask.askId]);
  if (!ended) return null;
  const { label, tone } = outcomeLabel(ask.kind, ended);
  const end = ended.outcome;
  const value = end?.status === 'answered' || end?.status === 'away' ? valueText(ask.kind, end.value) : '';
  return (
    <article
      className={`card ended tone-${tone}`}
      aria-label={`${KIND_LABEL[ask.kind]} from ${ask.agentId}: ${label}`}
      data-ask-id={ask.askId}
      data-outcome={end?.status ?? 'unknown'}
    >
      <header className="card-head">
        <span className="kind-badge">{KIND_LABEL[ask.kind]}</span>
        <CardSource agentId={ask.agentId} page={pageLabel} />
        <span className={`outcome-chip tone-${tone}`}>{label}</span>
      </header>
      <Markdown text={splitQuestion(ask.prompt).question || ask.prompt} className="ended-prompt" />
      <p className="ended-detail muted">
        {[
          value && `“${value}”`,
          end?.reason && `reason: ${end.reason.replace(/_/g, ' ')}`,
          end?.note && `note: ${end.note}`,
          end?.text,
          decidedByText(end, here),
          !end &&
            'it ended while this window had no connection, and the bridge kept no record of it (was it restarted?): nothing was answered from here',
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {keep && (
        <div className="unsent">
          <p className="unsent-title">You had not sent this:</p>
          <pre className="unsent-text">{draft}</pre>
          <div className="card-actions">
            <button
              type="button"
              className="button ghost small"
              onClick={() =>
                void navigator.clipboard?.writeText(draft).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {copied ? 'Copied' : 'Copy'}
            </button>
            <button
              type="button"
              className="button ghost small"
              onClick={() => {
                dropDraft(ask.askId);
                onGone();
              }}
            >
              Dismiss
            </button>
          </div>
        </div>
      )}
    </article>
  );
}
