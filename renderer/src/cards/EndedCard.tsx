import { useEffect, useRef, useState } from 'react';
import { dropDraft, loadDraft, type Draft } from '../drafts.js';
import type { AskEnd } from '../../../bridge/protocol/index.js';
import type { OpenAsk } from '../store.js';
import { Markdown } from '../markdown/Markdown.js';
import { CardSource, type PageLabel } from './CardSource.js';
import { t, useT } from '../i18n/index.js';
import { kindLabel } from './options.js';
import { splitQuestion } from './Prompt.js';
import { outcomeDetails, outcomeLabel } from './outcome.js';
import { CommandView } from './CommandView.js';
import { promptOf } from './said.js';

/** How long an ended card stays on screen with its outcome before it goes (History keeps it). */
export const LINGER_MS = 8000;

/** What the human had typed or picked and not sent, in words; empty when there is nothing. */
export function unsentDraft(ask: OpenAsk, draft: Draft): string {
  const parts: string[] = [];
  if (draft.text !== undefined && draft.text !== (ask.defaultValue ?? '') && draft.text.trim()) parts.push(draft.text);
  const words = t().ended;
  if (draft.note.trim()) parts.push(words.note(draft.note));
  if (draft.reasonText.trim()) parts.push(words.reason(draft.reasonText));
  return parts.join('\n');
}

/**
 * A card whose ask ended: it says how and who decided (and, for a page command, what was allowed or denied), then
 * goes to History after a moment. It keeps the height of the card it was, so nothing below it moves; the list lets
 * it go only when that moves nothing under the human's hand (Cards). A draft the human had not sent is shown (with
 * Copy) and keeps the card until they dismiss it, so nothing typed vanishes.
 */
export function EndedCard({
  ask,
  pageLabel,
  record,
  minHeight,
  waiting = false,
  onGone,
  onDismiss,
}: {
  ask: OpenAsk;
  pageLabel?: PageLabel | undefined;
  /** how History says it ended, for an ask that ended while this window was not connected */
  record?: AskEnd;
  /** the height of the open card it replaces */
  minHeight?: number | undefined;
  /** its moment is over: it leaves as soon as that moves nothing under the human's hand */
  waiting?: boolean;
  /** its moment is over */
  onGone(): void;
  /** the human dismissed it (with its unsent draft) */
  onDismiss(): void;
}) {
  const words = useT().ended;
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
  return (
    <article
      className={`card ended tone-${tone}`}
      aria-label={words.label(kindLabel(ask.kind), ask.agentId, label)}
      data-ask-id={ask.askId}
      data-outcome={end?.status ?? 'unknown'}
      data-waiting={waiting || undefined}
      style={minHeight ? { minHeight } : undefined}
    >
      <header className="card-head">
        <span className="kind-badge">{kindLabel(ask.kind)}</span>
        <CardSource agentId={ask.agentId} page={pageLabel} />
        <span className={`outcome-chip tone-${tone}`}>{label}</span>
      </header>
      <Markdown text={splitQuestion(promptOf(ask)).question || promptOf(ask)} className="ended-prompt" />
      {ask.kind === 'page_command' && ask.command && <CommandView cmd={ask.command.cmd} args={ask.command.args} />}
      <p className="ended-detail muted">
        {(end ? outcomeDetails(ask.kind, end, here) : [words.goneDetail]).join(' · ')}
      </p>
      {keep && (
        <div className="unsent">
          <p className="unsent-title">{words.unsentTitle}</p>
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
              {copied ? words.copied : words.copy}
            </button>
            <button
              type="button"
              className="button ghost small"
              onClick={() => {
                dropDraft(ask.askId);
                onDismiss();
              }}
            >
              {words.dismiss}
            </button>
          </div>
        </div>
      )}
    </article>
  );
}
