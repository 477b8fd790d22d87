import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { AnswerBody } from '../../../bridge/protocol/index.js';
import { useDraft, type Draft } from '../drafts.js';
import { digitOf, isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { Choices, MANY_CHOICES, nextNumber } from './Choices.js';
import { Countdown } from './Countdown.js';
import { Prompt } from './Prompt.js';
import { KIND_LABEL, answerOf, optionsOf, pick, rejectOf, REJECT_PRESETS } from './options.js';
import { RejectPanel } from './RejectPanel.js';
import { ImageTray } from '../images/ImageTray.js';
import { useImages } from '../images/useImages.js';

/** A card answers the keyboard only after it has been on screen this long: time to read what it asks. */
export const SETTLE_MS = 1000;

export interface AskCardProps {
  ask: OpenAsk;
  /** where the ask comes from, shown beside the agent */
  pageLabel?: string;
  send(body: AnswerBody): Promise<void>;
  /** the card's key handler, for presses that land outside every card (only the active card gets them) */
  registerKeys?(askId: string, handler: ((event: KeyboardEvent) => void) | undefined): void;
  /** the card the keys pressed outside any card go to, marked on screen */
  active?: boolean;
  /** the human focused or clicked this card */
  onActivate?(): void;
  settleMs?: number;
}

type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'> & {
  preventDefault(): void;
};

/** One open ask: what is asked, by whom, the time left, and every way to answer it from the keyboard. */
export function AskCard({
  ask,
  pageLabel,
  send,
  registerKeys,
  active = false,
  onActivate,
  settleMs = SETTLE_MS,
}: AskCardProps) {
  const [draft, saveDraft] = useDraft(ask.askId);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const [typed, setTyped] = useState('');
  const shownAt = useRef(performance.now());
  const options = optionsOf(ask);
  const withNote = ask.kind === 'user_confirm' || ask.kind === 'user_choose';
  // a page command runs code in the page: only a click on one of its buttons decides it, never a key
  const explicitOnly = ask.kind === 'page_command';
  const many = options.length > MANY_CHOICES;
  const pictures = useImages((problem) => setState((current) => ({ busy: current.busy, error: problem })));

  // any change to the draft clears the last complaint: it was about what the draft used to be
  const update = (change: Partial<Draft>) => {
    saveDraft(change);
    setState((current) => (current.error ? { busy: current.busy } : current));
  };
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
  const answer = () => {
    const body = answerOf(ask, draft);
    const images = pictures.uploads();
    return submit(typeof body === 'string' || !images.length ? body : { ...body, images });
  };
  const reject = (reason = draft.reason) => submit(rejectOf(ask, { ...draft, reason }));
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
    const settled = performance.now() - shownAt.current >= settleMs;
    if (event.key === 'Enter' && !event.shiftKey) {
      if (event.target instanceof HTMLElement && event.target.closest('[data-action]')) return;
      event.preventDefault();
      if (!settled) return setState({ busy: false, error: 'This card just arrived: read it, then press Enter again.' });
      if (draft.rejecting) return void reject();
      if (explicitOnly)
        return setState({ busy: false, error: 'Choose with a button: Allow once, Allow for this page, or Deny.' });
      void answer();
      return;
    }
    if (typing) return;
    const digit = digitOf(event);
    if (digit !== undefined && !explicitOnly) {
      event.preventDefault();
      if (!settled) return;
      if (draft.rejecting) {
        const preset = REJECT_PRESETS[digit - 1];
        if (preset) update({ reason: preset.reason });
        return;
      }
      // past nine choices, digits add up: 2 then 3 picks choice 23
      const number = many ? nextNumber(typed, digit, options.length) : String(digit);
      setTyped(many ? number : '');
      const option = options[Number(number) - 1];
      if (option) update({ picked: pick(ask, draft.picked, option.key) });
      return;
    }
    const letter = event.key.toLowerCase();
    if (ask.kind === 'user_confirm' && (letter === 'y' || letter === 'n')) {
      event.preventDefault();
      if (settled) update({ picked: [letter === 'y' ? 'yes' : 'no'] });
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
  const answerable = ask.kind !== 'user_pick_element' && !explicitOnly;
  return (
    <article
      className={`card kind-${ask.kind}${ask.paused ? ' is-paused' : ''}${active ? ' is-active' : ''}`}
      aria-label={`${KIND_LABEL[ask.kind]} from ${ask.agentId}`}
      aria-current={active ? 'true' : undefined}
      data-ask-id={ask.askId}
      tabIndex={0}
      onFocus={onActivate}
      onKeyDown={(e: ReactKeyboardEvent) => onKey(e)}
      {...(answerable ? { onPaste: pictures.onPaste, onDragOver: pictures.onDragOver, onDrop: pictures.onDrop } : {})}
    >
      <header className="card-head">
        <span className="kind-badge">{KIND_LABEL[ask.kind]}</span>
        <span className="card-source">
          <strong>{ask.agentId}</strong>
          {pageLabel && <span className="muted"> · {pageLabel}</span>}
        </span>
        {active && <span className="active-mark">keys here</span>}
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
      <Prompt text={ask.prompt} />

      {ask.kind === 'page_command' && ask.command && (
        <pre className="command">
          <span className="command-name">{ask.command.cmd}</span> {JSON.stringify(ask.command.args, null, 2)}
        </pre>
      )}
      {ask.kind === 'user_pick_element' && (
        <p className="muted">Click the element in the page; the picker is open there.</p>
      )}

      {options.length > 0 && !draft.rejecting && (
        <Choices
          ask={ask}
          options={options}
          picked={draft.picked}
          many={many}
          keys={!explicitOnly}
          onChoose={(option) => {
            if (immediate) {
              const body = answerOf(ask, { ...draft, picked: [option.key] });
              const images = explicitOnly ? [] : pictures.uploads();
              void submit(typeof body === 'string' || !images.length ? body : { ...body, images });
            } else update({ picked: pick(ask, draft.picked, option.key) });
          }}
          immediate={immediate}
        />
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

      {answerable && !draft.rejecting && <ImageTray images={pictures.images} remove={pictures.remove} />}
      {draft.rejecting ? (
        <RejectPanel
          draft={draft}
          update={update}
          busy={state.busy}
          onSend={(reason) => void reject(reason)}
          onCancel={() => update({ rejecting: false })}
        />
      ) : (
        <div className="card-actions">
          <span className="hint">
            {explicitOnly ? (
              <>Decide with a button · </>
            ) : (
              options.length > 0 && (
                <>
                  {many ? (
                    <>
                      <kbd>1</kbd>–<kbd>{options.length}</kbd> type the number{typed && <> ({typed})</>} ·{' '}
                    </>
                  ) : (
                    <>
                      <kbd>1</kbd>–<kbd>{options.length}</kbd> pick ·{' '}
                    </>
                  )}
                </>
              )
            )}
            {answerable && (
              <>
                <kbd>↵</kbd> answer ·{' '}
              </>
            )}
            <kbd>Esc</kbd> reject
          </span>
          <button type="button" className="button ghost" data-action onClick={() => update({ rejecting: true })}>
            Reject…
          </button>
          {answerable && (
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
