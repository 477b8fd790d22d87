import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { AnswerBody } from '../../../bridge/protocol/index.js';
import { useDraft } from '../drafts.js';
import { digitOf, isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { Countdown } from './Countdown.js';
import { KIND_LABEL, answerOf, optionsOf, pick, rejectOf, REJECT_PRESETS } from './options.js';
import { RejectPanel } from './RejectPanel.js';

export interface AskCardProps {
  ask: OpenAsk;
  /** where the ask comes from, shown beside the agent */
  pageLabel?: string;
  send(body: AnswerBody): Promise<void>;
  /** the card's key handler, for presses that land outside every card (the newest card takes them) */
  registerKeys?(askId: string, handler: ((event: KeyboardEvent) => void) | undefined): void;
}

type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'> & {
  preventDefault(): void;
};

/** One open ask: what is asked, by whom, the time left, and every way to answer it from the keyboard. */
export function AskCard({ ask, pageLabel, send, registerKeys }: AskCardProps) {
  const [draft, update] = useDraft(ask.askId);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const options = optionsOf(ask);
  const withNote = ask.kind === 'user_confirm' || ask.kind === 'user_choose';

  const submit = async (body: AnswerBody | string) => {
    if (typeof body === 'string') return setState({ busy: false, error: body });
    setState({ busy: true });
    try {
      await send(body);
      setState({ busy: true });
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const answer = () => submit(answerOf(ask, draft));
  const reject = () => submit(rejectOf(ask, draft));
  const togglePause = async () => {
    try {
      await send({ askId: ask.askId, action: ask.paused ? 'resume' : 'pause' });
      setState((current) => ({ busy: current.busy }));
    } catch (error) {
      setState({ busy: false, error: error instanceof Error ? error.message : String(error) });
    }
  };

  const onKey = (event: KeyPress) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = isTyping(event.target);
    if (event.key === 'Escape') {
      event.preventDefault();
      update({ rejecting: !draft.rejecting });
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      if (event.target instanceof HTMLElement && event.target.closest('[data-action]')) return;
      event.preventDefault();
      void (draft.rejecting ? reject() : answer());
      return;
    }
    if (typing) return;
    const digit = digitOf(event);
    if (digit !== undefined) {
      event.preventDefault();
      if (draft.rejecting) {
        const preset = REJECT_PRESETS[digit - 1];
        if (preset) update({ reason: preset.reason });
      } else {
        const option = options[digit - 1];
        if (option) update({ picked: pick(ask, draft.picked, option.key) });
      }
      return;
    }
    const letter = event.key.toLowerCase();
    if (ask.kind === 'user_confirm' && (letter === 'y' || letter === 'n')) {
      event.preventDefault();
      update({ picked: [letter === 'y' ? 'yes' : 'no'] });
    } else if (letter === 'p') {
      event.preventDefault();
      void togglePause();
    }
  };

  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    registerKeys?.(ask.askId, (event) => latest.current(event));
    return () => registerKeys?.(ask.askId, undefined);
  }, [ask.askId, registerKeys]);

  const immediate = ask.kind !== 'user_choose';
  return (
    <article
      className={`card kind-${ask.kind}${ask.paused ? ' is-paused' : ''}`}
      aria-label={`${KIND_LABEL[ask.kind]} from ${ask.agentId}`}
      data-ask-id={ask.askId}
      tabIndex={-1}
      onKeyDown={(e: ReactKeyboardEvent) => onKey(e)}
    >
      <header className="card-head">
        <span className="kind-badge">{KIND_LABEL[ask.kind]}</span>
        <span className="card-source">
          <strong>{ask.agentId}</strong>
          {pageLabel && <span className="muted"> · {pageLabel}</span>}
        </span>
        <Countdown ask={ask} />
        <button
          type="button"
          className="button ghost small"
          data-action
          onClick={() => void togglePause()}
          title={ask.paused ? 'Resume the countdown (P)' : 'Pause the countdown (P)'}
        >
          {ask.paused ? 'Resume' : 'Pause'}
        </button>
      </header>
      <p className="prompt">{ask.prompt}</p>

      {ask.kind === 'page_command' && ask.command && (
        <pre className="command">
          <span className="command-name">{ask.command.cmd}</span> {JSON.stringify(ask.command.args, null, 2)}
        </pre>
      )}
      {ask.kind === 'user_pick_element' && (
        <p className="muted">Click the element in the page; the picker is open there.</p>
      )}

      {options.length > 0 && !draft.rejecting && (
        <div className={`options${ask.kind === 'user_choose' ? ' choices' : ''}`} role="group" aria-label="options">
          {options.map((option, i) => (
            <button
              key={option.key}
              type="button"
              className={`option${option.tone ? ` ${option.tone}` : ''}`}
              aria-pressed={draft.picked.includes(option.key)}
              {...(immediate ? { 'data-action': true } : {})}
              onClick={() => {
                if (immediate) void submit(answerOf(ask, { ...draft, picked: [option.key] }));
                else update({ picked: pick(ask, draft.picked, option.key) });
              }}
            >
              <kbd>{i + 1}</kbd>
              {ask.kind === 'user_choose' && ask.multiple && (
                <span className="check" aria-hidden>
                  {draft.picked.includes(option.key) ? '☑' : '☐'}
                </span>
              )}
              <span>{option.label}</span>
            </button>
          ))}
        </div>
      )}

      {ask.kind === 'user_input' && !draft.rejecting && (
        <textarea
          className="field"
          aria-label="answer"
          rows={2}
          value={draft.text ?? ask.defaultValue ?? ''}
          placeholder="Your answer"
          onChange={(e) => update({ text: e.target.value })}
        />
      )}
      {withNote && !draft.rejecting && (
        <input
          className="field note"
          aria-label="note"
          placeholder="Note for the agent (optional)"
          value={draft.note}
          onChange={(e) => update({ note: e.target.value })}
        />
      )}

      {draft.rejecting ? (
        <RejectPanel
          draft={draft}
          update={update}
          busy={state.busy}
          onSend={() => void reject()}
          onCancel={() => update({ rejecting: false })}
        />
      ) : (
        <div className="card-actions">
          <span className="hint">
            {options.length > 0 && (
              <>
                <kbd>1</kbd>–<kbd>{Math.min(options.length, 9)}</kbd> pick ·{' '}
              </>
            )}
            <kbd>↵</kbd> answer · <kbd>Esc</kbd> reject
          </span>
          <button type="button" className="button ghost" data-action onClick={() => update({ rejecting: true })}>
            Reject…
          </button>
          {ask.kind !== 'user_pick_element' && (
            <button
              type="button"
              className="button primary"
              data-action
              disabled={state.busy}
              onClick={() => void answer()}
            >
              Answer
            </button>
          )}
        </div>
      )}
      {state.error && (
        <p className="card-error" role="alert">
          {state.error}
        </p>
      )}
    </article>
  );
}
