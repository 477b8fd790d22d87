import { sayFailure } from '../refusal.js';
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import type { AnswerBody } from '../../../bridge/protocol/index.js';
import { useDraft, type Draft, type DraftChange } from '../drafts.js';
import { digitOf, isTyping } from '../keys.js';
import type { OpenAsk } from '../store.js';
import { Choices, MANY_CHOICES, filtered } from './Choices.js';
import { NUMBER_PAUSE_MS, typeDigit } from './number-entry.js';
import { isOnScreen, showCard } from './on-screen.js';
import { CommandView } from './CommandView.js';
import { Countdown } from './Countdown.js';
import { Prompt } from './Prompt.js';
import { CardSource, type PageLabel } from './CardSource.js';
import { CardHint } from './CardHint.js';
import { answerOf, kindLabel, optionsOf, pick, rejectOf, REJECT_PRESETS } from './options.js';
import { RejectPanel } from './RejectPanel.js';
import { withReply } from '../quick/context.js';
import { QuickButton } from '../quick/QuickButton.js';
import { QuickMenu } from '../quick/QuickMenu.js';
import { agentStyle } from '../agent-colour.js';
import { t, useT } from '../i18n/index.js';
import { ImageTray } from '../images/ImageTray.js';
import { useImages } from '../images/useImages.js';
import { MOVED_MS } from './motion.js';
import type { AutoAnswer } from './auto-answer.js';
import { AutoAnswerBar } from './AutoAnswerBar.js';
import { promptOf } from './said.js';
import { cardField } from './focus.js';

/** A card answers the keyboard only after it has been on screen this long: time to read what it asks. */
export const SETTLE_MS = 1000;

export interface AskCardProps {
  ask: OpenAsk;
  /** where the ask comes from, shown beside the agent */
  pageLabel?: PageLabel | undefined;
  send(body: AnswerBody): Promise<void>;
  /** the card's key handler, for presses that land outside every card (only the active card gets them) */
  registerKeys?(askId: string, handler: ((event: KeyboardEvent) => void) | undefined): void;
  /** the card the keys pressed outside any card go to, marked on screen */
  active?: boolean;
  /** the human focused or clicked this card */
  onActivate?(): void;
  settleMs?: number;
  /** the window has no bridge: nothing can be sent; what the human types is kept */
  offline?: boolean;
  /** how long ago the card last moved on screen by itself (a click sooner than MOVED_MS after is held) */
  movedAgo?(askId: string): number;
  /** ↑ ↓ on the focused card: the previous or next card takes the keys */
  onMove?(step: number): void;
  /** the opt-in auto-answer this card gives if nobody touches it */
  autoRule?: AutoAnswer | undefined;
}

/** The fields of a card quick replies can go into. */
type QuickField = 'answer' | 'note' | 'reason';

type KeyPress = Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey' | 'target'> & {
  preventDefault(): void;
};

/** The keys a card acts on outside its text fields (besides Enter and Esc, which act everywhere on it). */
const CARD_LETTER = /^[0-9yYnNpP]$/;

/** False until the card has been on screen `settleMs`: shown on the card, so the human sees when keys count. */
function useSettled(settleMs: number): boolean {
  const [settled, setSettled] = useState(settleMs <= 0);
  // the window gives every card the same settle time for its whole life, and a timer that fires once the card is
  // gone sets nothing anyone sees: neither the clean-up nor the dependency on settleMs changes what is shown
  useEffect(
    () => {
      const timer = setTimeout(() => setSettled(true), settleMs);
      // Stryker disable next-line ArrowFunction: equivalent, see above
      return () => clearTimeout(timer);
    },
    // Stryker disable next-line ArrayDeclaration: equivalent, see above
    [settleMs],
  );
  return settled;
}

/** One open ask: what is asked, by whom, the time left, and every way to answer it from the keyboard. */
export function AskCard({
  ask,
  pageLabel,
  send,
  registerKeys,
  active = false,
  onActivate,
  settleMs = SETTLE_MS,
  offline = false,
  movedAgo,
  onMove,
  autoRule,
}: AskCardProps) {
  const words = useT().cards;
  const [draft, saveDraft] = useDraft(ask.askId);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const [typed, setTyped] = useState('');
  const [filter, setFilter] = useState('');
  const [quick, setQuick] = useState<QuickField>();
  // any touch of the card (a key, a click, a change to its draft) calls off its auto-answer
  const [touched, setTouched] = useState(false);
  const card = useRef<HTMLElement>(null);
  const shownAt = useRef(performance.now());
  const settled = useSettled(settleMs);
  const numberTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(numberTimer.current), []);
  const options = optionsOf(ask);
  const withNote = ask.kind === 'user_confirm' || ask.kind === 'user_choose';
  // a page command runs code in the page: only a click on one of its buttons decides it, never a key
  const explicitOnly = ask.kind === 'page_command';
  const many = options.length > MANY_CHOICES;
  const pictures = useImages((problem) => setState((current) => ({ busy: current.busy, error: problem })));

  // any change to the draft clears the last complaint: it was about what the draft used to be
  const update = (change: DraftChange) => {
    setTouched(true);
    saveDraft(change);
    setState((current) => (current.error ? { busy: current.busy } : current));
  };
  const complain = (error: string) => setState((current) => ({ busy: current.busy, error }));
  const submit = async (body: AnswerBody | string) => {
    // without a bridge nothing else matters: say that first
    if (offline) return complain(t().problems.offline);
    if (typeof body === 'string') return setState({ busy: false, error: body });
    setState({ busy: true });
    try {
      await send(body);
      setState({ busy: true });
    } catch (error) {
      setState({ busy: false, error: sayFailure(error) });
    }
  };
  const answer = (current: Draft = draft) => {
    const body = answerOf(ask, current);
    const images = pictures.uploads();
    return submit(typeof body === 'string' || !images.length ? body : { ...body, images });
  };
  const reject = (reason = draft.reason) => submit(rejectOf(ask, { ...draft, reason }));
  const togglePause = async () => {
    if (offline) return complain(t().problems.offline);
    try {
      await send({ askId: ask.askId, action: ask.paused ? 'resume' : 'pause' });
      setState((current) => ({ busy: current.busy }));
    } catch (error) {
      setState({ busy: false, error: sayFailure(error) });
    }
  };

  /**
   * The choices numbered `numbers` the human can see, and the first the filter hides (never picked: a key does
   * not change what is out of sight).
   */
  const inSight = (numbers: number[]): { shown: number[]; hidden: number | undefined } => {
    const visible = new Set(filtered(options, filter).map((o) => o.number));
    const hidden = numbers.find((n) => options[n - 1] && !visible.has(n));
    return { shown: numbers.filter((n) => visible.has(n)), hidden };
  };
  /** The choices picked after picking these (visible) numbers, in order. */
  const picking = (picked: readonly string[], numbers: number[]): string[] =>
    numbers.reduce<string[]>(
      (list, n) => {
        const option = options[n - 1];
        return option ? pick(ask, list, option.key) : list;
      },
      [...picked],
    );
  const pickNumbers = (numbers: number[]) => {
    const { shown, hidden } = inSight(numbers);
    if (shown.length) update((current) => ({ picked: picking(current.picked, shown) }));
    // after the update, which clears the last complaint: this one is about the key just pressed
    if (hidden !== undefined) complain(t().problems.hiddenByFilter(hidden));
  };
  /** A number still being typed counts as complete now (a pause, or Enter). */
  const finishNumber = (): number[] => {
    clearTimeout(numberTimer.current);
    // Stryker disable next-line ArrayDeclaration: equivalent, a list of strings is no number[] and picks no choice
    const pending = typed ? [Number(typed)] : [];
    setTyped('');
    return pending;
  };
  const typeNumber = (digit: number) => {
    clearTimeout(numberTimer.current);
    const entry = typeDigit(typed, digit, options.length);
    setTyped(entry.typed);
    pickNumbers(entry.complete);
    // Stryker disable next-line ConditionalExpression: equivalent, a pause with nothing typed completes nothing
    if (entry.typed) numberTimer.current = setTimeout(() => latestFinish.current(), NUMBER_PAUSE_MS);
  };
  const latestFinish = useRef(() => pickNumbers(finishNumber()));
  latestFinish.current = () => pickNumbers(finishNumber());

  /** The field quick replies go into: the one the key came from, else the card's main one. */
  const quickField = (target: EventTarget | null): QuickField | undefined => {
    if (draft.rejecting) return 'reason';
    const named = target instanceof HTMLElement ? target.dataset.field : undefined;
    if (named === 'answer' || named === 'note') return named;
    if (ask.kind === 'user_input') return 'answer';
    return withNote ? 'note' : undefined;
  };
  const closeQuick = (field: QuickField) => {
    setQuick(undefined);
    card.current?.querySelector<HTMLElement>(`[data-field="${field}"]`)?.focus();
  };
  const quickMenu = (field: QuickField) =>
    quick === field && (
      <QuickMenu
        kind={field === 'reason' ? 'reason' : 'answer'}
        text={field === 'reason' ? draft.reasonText : field === 'note' ? draft.note : (draft.text ?? '')}
        onPick={(text) => {
          if (field === 'reason') update((d) => ({ reasonText: withReply(d.reasonText, text) }));
          else if (field === 'note') update((d) => ({ note: withReply(d.note, text) }));
          else update((d) => ({ text: withReply(d.text ?? ask.defaultValue ?? '', text) }));
          closeQuick(field);
        }}
        onClose={() => closeQuick(field)}
      />
    );

  const onKey = (event: KeyPress) => {
    // Ctrl+. (⌘. on a Mac): the quick replies of the field in use, as GitHub's saved replies open
    if ((event.ctrlKey || event.metaKey) && event.key === '.') {
      const field = quickField(event.target);
      // no default action or other listener acts on Ctrl+., so holding it back where nothing opens changes nothing
      // Stryker disable next-line ConditionalExpression: equivalent, see above
      if (!field) return;
      event.preventDefault();
      return setQuick(field);
    }
    // Ctrl+Enter (⌘↵) answers from any field of the card, a multi-line one too (as mcp-feedback-enhanced)
    const modEnter = (event.ctrlKey || event.metaKey) && !event.altKey && event.key === 'Enter';
    if (!modEnter && (event.ctrlKey || event.metaKey || event.altKey)) return;
    const typing = isTyping(event.target);
    const onCard = event.target === card.current;
    if (onCard && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && onMove) {
      event.preventDefault();
      return onMove(event.key === 'ArrowDown' ? 1 : -1);
    }
    // on a focused input card, what the human types is the answer: the field takes the focus and the letter
    if (onCard && ask.kind === 'user_input' && !draft.rejecting && event.key.length === 1 && !modEnter) {
      cardField(card.current)?.focus();
      return;
    }
    const acts = ['Escape', 'Enter'].includes(event.key) || (!typing && CARD_LETTER.test(event.key));
    if (!acts || (event.key === 'Enter' && event.shiftKey)) return;
    if (
      event.key === 'Enter' &&
      !modEnter &&
      event.target instanceof HTMLElement &&
      event.target.closest('[data-action]')
    )
      return;
    event.preventDefault();
    // keys act only on what the human can see: a card scrolled away is brought back first, and nothing happens
    if (card.current && !isOnScreen(card.current)) {
      showCard(card.current);
      return complain(t().problems.outOfView);
    }
    if (event.key === 'Escape') {
      // a page command has one way to say no: its Deny button
      if (explicitOnly) return complain(t().problems.buttonsOnly);
      finishNumber();
      update({ rejecting: !draft.rejecting });
      return;
    }
    const ready = performance.now() - shownAt.current >= settleMs;
    if (event.key === 'Enter') {
      if (!ready) return complain(t().problems.justArrived);
      if (draft.rejecting) return void reject();
      if (explicitOnly) return complain(t().problems.buttonsOnly);
      // a number still being typed is part of this answer (1, 0, Enter sends choice 10)
      const pending = finishNumber();
      const { shown, hidden } = inSight(pending);
      if (hidden !== undefined) return complain(t().problems.hiddenByFilter(hidden));
      void answer(shown.length ? { ...draft, picked: picking(draft.picked, shown) } : draft);
      return;
    }
    const digit = digitOf(event);
    if (digit !== undefined) {
      if (!ready || explicitOnly) return;
      if (draft.rejecting) {
        const preset = REJECT_PRESETS[digit - 1];
        if (!preset) return;
        update({ reason: preset });
        // the ring follows the pick, so Enter sends what is marked (a mounted card, with a button for each preset)
        // Stryker disable next-line OptionalChaining: equivalent, see above
        card.current?.querySelectorAll<HTMLElement>('.reject-presets button')[digit - 1]?.focus();
        return;
      }
      return typeNumber(digit);
    }
    const letter = event.key.toLowerCase();
    if (letter === 'p') return void togglePause();
    // yes/no only while the human sees them: with the reject panel open the choices are hidden
    if (ask.kind === 'user_confirm' && !draft.rejecting && ready) update({ picked: [letter === 'y' ? 'yes' : 'no'] });
  };

  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    registerKeys?.(ask.askId, (event) => latest.current(event));
    return () => registerKeys?.(ask.askId, undefined);
  }, [ask.askId, registerKeys]);

  const immediate = ask.kind !== 'user_choose';
  const answerable = ask.kind !== 'user_pick_element' && !explicitOnly;
  // one primary action per card: a confirm or presence answers with its option buttons, so it has no Answer button
  const answerButton = ask.kind === 'user_choose' || ask.kind === 'user_input';
  const pauseButton = (
    <button
      type="button"
      className="button ghost small pause-button"
      data-action
      disabled={offline}
      onClick={() => void togglePause()}
      title={ask.paused ? words.resumeTitle : words.pauseTitle}
    >
      {ask.paused ? words.resume : words.pause}
    </button>
  );
  return (
    <article
      className={`card kind-${ask.kind}${ask.paused ? ' is-paused' : ''}${active ? ' is-active' : ''}${offline ? ' is-offline' : ''}${ask.async ? ' is-async' : ' is-sync'}`}
      style={agentStyle(ask.agentId)}
      aria-label={words.label(kindLabel(ask.kind), ask.agentId)}
      aria-current={active ? 'true' : undefined}
      data-ask-id={ask.askId}
      data-keys={settled ? 'ready' : 'settling'}
      ref={card}
      tabIndex={0}
      onFocus={onActivate}
      onKeyDown={(e: ReactKeyboardEvent) => {
        setTouched(true);
        onKey(e);
      }}
      onPointerDown={() => setTouched(true)}
      onClickCapture={(e) => {
        // a click on a card that just moved under the pointer is held, as a key is on a card that just arrived
        const button = e.target instanceof Element ? e.target.closest('button') : null;
        if (!button || !movedAgo || movedAgo(ask.askId) >= MOVED_MS) return;
        e.preventDefault();
        e.stopPropagation();
        complain(t().problems.justMoved);
      }}
      {...(answerable ? { onPaste: pictures.onPaste, onDragOver: pictures.onDragOver, onDrop: pictures.onDrop } : {})}
    >
      <header className="card-head">
        <span className="kind-badge">{kindLabel(ask.kind)}</span>
        <CardSource agentId={ask.agentId} page={pageLabel} />
        {active && <span className="active-mark">{words.keysHere}</span>}
        {ask.async ? (
          <span className="wait-tag async" title={words.asyncTitle}>
            {words.async}
          </span>
        ) : (
          <span className="wait-tag sync" title={words.agentWaitsTitle}>
            {words.agentWaits}
          </span>
        )}
        <Countdown ask={ask} offline={offline} />
      </header>
      <Prompt text={promptOf(ask)} />
      {autoRule && !touched && !offline && !ask.paused && (
        <AutoAnswerBar
          ask={ask}
          auto={autoRule}
          onCancel={() => setTouched(true)}
          onDue={() => void submit({ askId: ask.askId, action: 'answer', value: autoRule.value })}
        />
      )}

      {ask.kind === 'page_command' && ask.command && <CommandView cmd={ask.command.cmd} args={ask.command.args} />}
      {ask.kind === 'user_pick_element' && <p className="muted">{words.pickElement}</p>}

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
          filter={filter}
          onFilter={setFilter}
          offline={offline}
        />
      )}
      {typed && (
        <p className="typed-number" aria-live="polite">
          {words.typing} <strong>{typed}</strong>… <span className="muted">{words.typingMore}</span>
        </p>
      )}

      {ask.kind === 'user_input' && !draft.rejecting && (
        <textarea
          className="field"
          aria-label={words.answerField}
          data-field="answer"
          rows={2}
          value={draft.text ?? ask.defaultValue ?? ''}
          placeholder={words.answerPlaceholder}
          onChange={(e) => update({ text: e.target.value })}
        />
      )}
      {!draft.rejecting && quickMenu('answer')}
      {withNote && !draft.rejecting && (
        <input
          className="field note"
          aria-label={words.noteField}
          data-field="note"
          placeholder={words.notePlaceholder}
          value={draft.note}
          onChange={(e) => update({ note: e.target.value })}
        />
      )}
      {!draft.rejecting && quickMenu('note')}

      {answerable && !draft.rejecting && <ImageTray images={pictures.images} remove={pictures.remove} />}
      {draft.rejecting ? (
        <RejectPanel
          draft={draft}
          update={update}
          busy={state.busy || offline}
          onSend={(reason) => void reject(reason)}
          onCancel={() => update({ rejecting: false })}
          onQuick={() => setQuick('reason')}
        />
      ) : (
        <div className="card-actions">
          <CardHint explicitOnly={explicitOnly} options={options.length} many={many} answerable={answerable} />
          {quickField(null) && <QuickButton onClick={() => setQuick(quickField(null))} />}
          {!explicitOnly && (
            <button type="button" className="button ghost" data-action onClick={() => update({ rejecting: true })}>
              {words.rejectOpen}
            </button>
          )}
          {answerButton && (
            <button
              type="button"
              className="button primary"
              data-action
              disabled={state.busy || offline}
              onClick={() => void answer()}
            >
              {words.answer}
            </button>
          )}
          {pauseButton}
        </div>
      )}
      {draft.rejecting && quickMenu('reason')}
      {state.error && (
        <p className="card-error" role="alert">
          {state.error}
        </p>
      )}
    </article>
  );
}
