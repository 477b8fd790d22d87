import { randomBytes } from 'node:crypto';
import {
  DEFAULT_ASK_TIMEOUT_MS,
  MAX_ASK_TIMEOUT_MS,
  type AnswerBody,
  type AskDecidedBy,
  type AskEnd,
  type AskKind,
  type AskOutcome,
  type AskRecord,
  type AskStatus,
  type AskUpdate,
  type AskView,
  type ImageRef,
  type Json,
  type RejectReason,
} from '../protocol/index.js';
import { Conflict, NotFound } from '../errors.js';
import type { HumanHub } from '../window/hub.js';
import { answerValue } from './answer-value.js';
import { Countdown, systemClock, type Clock } from './countdown.js';
import { hintFor } from './hints.js';
import { PageApprovals } from './page-approvals.js';

/** What an agent (or the page command gate) asks. */
export interface AskSpec {
  kind: AskKind;
  agentId: string;
  prompt: string;
  pageId?: string;
  pageUrl?: string;
  choices?: string[];
  multiple?: boolean;
  defaultValue?: string;
  command?: { cmd: string; args: Json };
  /** default DEFAULT_ASK_TIMEOUT_MS, capped at MAX_ASK_TIMEOUT_MS */
  timeoutMs?: number;
  /** the agent asked with async: true (kept in the ask's record) */
  async?: boolean;
}

/** One open question to the human. Only Asks changes it; everyone else reads it. */
export interface Ask {
  readonly askId: string;
  readonly spec: AskSpec;
  /** wall-clock ms, for the time shown */
  readonly createdAt: number;
  /** monotonic ms (clock.now()), for how long it has been open */
  readonly openedAt: number;
  readonly countdown: Countdown;
  /** resolves once, when the ask ends, whichever way */
  readonly outcome: Promise<AskOutcome>;
  /** the human ticked "allow for this page" (page_command asks) */
  remember: boolean;
  ended?: AskStatus;
  /** who or what ended it, once it ended */
  decidedBy?: AskDecidedBy;
}

interface Entry {
  ask: Ask;
  resolve: (outcome: AskOutcome) => void;
  listeners: Set<(update: AskUpdate) => void>;
}

export interface EndDetails {
  value?: Json;
  note?: string;
  reason?: RejectReason;
  text?: string;
  images?: ImageRef[];
  /** default: the human for answered and rejected, the bridge otherwise */
  decidedBy?: AskDecidedBy;
}

const ENDED_KEPT = 500;

/**
 * Owns the ask lifecycle (README "Asking the human"): created → open → (paused ↔ open) → answered | rejected | timed_out | away |
 * cancelled. Keeps the countdown on the server, tells the window (`ask`, `ask_update`, `presence` on the hub) and
 * resolves each ask's outcome exactly once, with a hint for the agent. Also owns the human's presence.
 */
export class Asks {
  private readonly open = new Map<string, Entry>();
  /** asks that ended recently, so a late answer gets a clear 409 instead of a 404 */
  private readonly ended = new Map<string, AskStatus>();
  private isAway = false;
  private readonly recorders = new Set<(record: AskRecord) => void>();
  /** "allow for this page" answers to page_command asks */
  readonly pageApprovals = new PageApprovals();

  constructor(
    private readonly hub: Pick<HumanHub, 'broadcast'>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** Opens an ask: the window gets an `ask` event and the countdown starts. */
  create(spec: AskSpec): Ask {
    const askId = `ask-${randomBytes(6).toString('hex')}`;
    const timeoutMs = Math.min(Math.max(1, spec.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS), MAX_ASK_TIMEOUT_MS);
    let resolve: (outcome: AskOutcome) => void = () => undefined;
    const outcome = new Promise<AskOutcome>((r) => (resolve = r));
    const ask: Ask = {
      askId,
      spec,
      createdAt: this.clock.wallNow(),
      openedAt: this.clock.now(),
      countdown: new Countdown(timeoutMs, () => this.expire(askId), this.clock),
      outcome,
      remember: false,
    };
    this.open.set(askId, { ask, resolve, listeners: new Set() });
    this.hub.broadcast('ask', this.view(ask));
    return ask;
  }

  /**
   * The outcome of an ask that never opened (e.g. the human is away): same shape, same hints, and on record
   * like every other ask, though no card was shown.
   */
  immediate(spec: AskSpec, status: AskStatus, details: EndDetails = {}): AskOutcome {
    const askId = `ask-${randomBytes(6).toString('hex')}`;
    const now = new Date(this.clock.wallNow()).toISOString();
    this.record(askId, spec, { createdAt: now, endedAt: now, shown: false }, this.endOf(status, details));
    return this.outcomeOf(askId, spec.kind, status, details);
  }

  /** Listens to every ask that ends (records for History and the journal). */
  onRecord(listener: (record: AskRecord) => void): () => void {
    this.recorders.add(listener);
    return () => this.recorders.delete(listener);
  }

  get(askId: string): Ask | undefined {
    return this.open.get(askId)?.ask;
  }

  /** Open asks, oldest first, as the window shows them. */
  views(): AskView[] {
    return [...this.open.values()].map((e) => this.view(e.ask));
  }

  /** Open asks of one agent (bridge_status). */
  forAgent(agentId: string): AskView[] {
    return this.views().filter((v) => v.agentId === agentId);
  }

  view(ask: Ask): AskView {
    const { spec, countdown } = ask;
    return {
      askId: ask.askId,
      kind: spec.kind,
      agentId: spec.agentId,
      ...(spec.pageId ? { pageId: spec.pageId } : {}),
      ...(spec.pageUrl ? { pageUrl: spec.pageUrl } : {}),
      prompt: spec.prompt,
      ...(spec.choices ? { choices: spec.choices } : {}),
      ...(spec.multiple !== undefined ? { multiple: spec.multiple } : {}),
      ...(spec.defaultValue !== undefined ? { defaultValue: spec.defaultValue } : {}),
      ...(spec.command ? { command: spec.command } : {}),
      ...(spec.async ? { async: true } : {}),
      createdAt: new Date(ask.createdAt).toISOString(),
      deadline: new Date(countdown.deadline()).toISOString(),
      remainingMs: Math.round(countdown.remainingMs()),
      paused: countdown.paused,
    };
  }

  private update(ask: Ask, end?: AskEnd): AskUpdate {
    return {
      askId: ask.askId,
      deadline: new Date(ask.countdown.deadline()).toISOString(),
      remainingMs: Math.round(ask.countdown.remainingMs()),
      paused: ask.countdown.paused,
      status: ask.ended ?? 'open',
      ...(end ? { outcome: end } : {}),
    };
  }

  /** Listens to the countdown moving (pause/resume) and to the end of one ask. */
  watch(ask: Ask, listener: (update: AskUpdate) => void): () => void {
    const entry = this.open.get(ask.askId);
    if (!entry) return () => undefined;
    entry.listeners.add(listener);
    return () => entry.listeners.delete(listener);
  }

  /**
   * POST /bridge/answer: the human answers, rejects, pauses or resumes. Any of these means they are here.
   * `saveImages` keeps the answer's images once the answer is known to be valid (nothing is stored for a 4xx).
   */
  act(body: AnswerBody, saveImages: () => ImageRef[] = () => []): AskUpdate {
    const entry = this.open.get(body.askId);
    if (!entry) {
      const status = this.ended.get(body.askId);
      if (status) throw new Conflict(`ask "${body.askId}" has already ended (${status})`, 'askId');
      throw new NotFound(`no ask "${body.askId}"; open asks: ${this.list()}`, 'askId');
    }
    const { ask } = entry;
    // Validate before touching any state, so a bad answer changes nothing.
    const value = body.action === 'answer' ? answerValue(ask.spec, body.value) : undefined;
    this.setAway(false);
    switch (body.action) {
      case 'pause':
        ask.countdown.pause();
        this.changed(entry);
        break;
      case 'resume':
        ask.countdown.resume();
        this.changed(entry);
        break;
      case 'reject':
        this.end(ask.askId, 'rejected', {
          reason: body.reason ?? 'other',
          ...(body.note ? { text: body.note } : {}),
        });
        break;
      case 'answer': {
        if (ask.spec.kind === 'page_command' && body.remember) ask.remember = true;
        const images = body.images?.length ? saveImages() : [];
        const note = { ...(body.note ? { note: body.note } : {}), ...(images.length ? { images } : {}) };
        if (ask.spec.kind === 'user_presence' && value === 'away') {
          this.end(ask.askId, 'away', { value, ...note });
          this.setAway(true);
        } else this.end(ask.askId, 'answered', { ...(value !== undefined ? { value } : {}), ...note });
        break;
      }
    }
    return this.update(ask);
  }

  /** Ends an open ask; returns false when it had already ended. The outcome resolves and the window is told. */
  end(askId: string, status: AskStatus, details: EndDetails = {}): boolean {
    const entry = this.open.get(askId);
    if (!entry) return false;
    const { ask } = entry;
    ask.countdown.stop();
    ask.ended = status;
    const end = this.endOf(status, details);
    ask.decidedBy = end.decidedBy;
    this.open.delete(askId);
    this.ended.set(askId, status);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value ?? '');
    this.changed(entry, end);
    this.record(
      askId,
      ask.spec,
      {
        createdAt: new Date(ask.createdAt).toISOString(),
        endedAt: new Date(this.clock.wallNow()).toISOString(),
        shown: true,
      },
      end,
    );
    entry.resolve(this.outcomeOf(askId, ask.spec.kind, status, details));
    return true;
  }

  /** Withdraws an ask: by default the agent did (its call was cancelled or its client left). */
  cancel(askId: string, text: string, decidedBy: AskDecidedBy = 'agent'): boolean {
    return this.end(askId, 'cancelled', { text, decidedBy });
  }

  private endOf(status: AskStatus, details: EndDetails): AskEnd {
    return {
      status,
      ...answerFields(details),
      decidedBy: details.decidedBy ?? (status === 'answered' || status === 'rejected' ? 'human' : 'bridge'),
    };
  }

  private record(
    askId: string,
    spec: AskSpec,
    times: { createdAt: string; endedAt: string; shown: boolean },
    end: AskEnd,
  ): void {
    const record: AskRecord = {
      askId,
      kind: spec.kind,
      agentId: spec.agentId,
      prompt: spec.prompt,
      ...(spec.pageId ? { pageId: spec.pageId } : {}),
      ...(spec.pageUrl ? { pageUrl: spec.pageUrl } : {}),
      ...(spec.choices ? { choices: spec.choices } : {}),
      ...(spec.multiple !== undefined ? { multiple: spec.multiple } : {}),
      ...(spec.command ? { command: spec.command } : {}),
      async: spec.async ?? false,
      ...times,
      ...end,
    };
    for (const recorder of this.recorders) recorder(record);
  }

  private expire(askId: string): void {
    const ask = this.get(askId);
    if (!ask) return;
    // the countdown's own length: time spent paused is not time the human let pass
    const { durationMs } = ask.countdown;
    const paused = Math.round((this.clock.now() - ask.openedAt - durationMs) / 1000);
    const text = `no answer within ${Math.round(durationMs / 1000)} s${paused > 0 ? ` (the countdown was paused ${paused} s)` : ''}`;
    // No answer to "are you there?" is itself the answer.
    if (ask.spec.kind === 'user_presence') {
      this.end(askId, 'away', { value: 'away', text });
      this.setAway(true);
    } else this.end(askId, 'timed_out', { text });
  }

  private changed(entry: Entry, end?: AskEnd): void {
    const update = this.update(entry.ask, end);
    this.hub.broadcast('ask_update', update);
    for (const listener of entry.listeners) listener(update);
  }

  private outcomeOf(askId: string, kind: AskKind, status: AskStatus, details: EndDetails): AskOutcome {
    return {
      askId,
      status,
      ...answerFields(details),
      hint: hintFor(status, { kind, ...details }),
    };
  }

  private list(): string {
    return this.open.size ? [...this.open.keys()].join(', ') : 'none';
  }

  /** Whether the human is marked away (by a user_presence answer or the window reporting idle). */
  get away(): boolean {
    return this.isAway;
  }

  setAway(away: boolean): void {
    if (this.isAway === away) return;
    this.isAway = away;
    this.hub.broadcast('presence', { away });
  }

  /** The bridge stops: every open ask ends as cancelled, decided by the bridge, with the reason. */
  close(): void {
    for (const askId of [...this.open.keys()])
      this.cancel(askId, 'the bridge is shutting down; ask again once it is back', 'bridge');
  }
}

/** What the human gave with an ending (value, note, reason, text, images), only the parts present. */
function answerFields(details: EndDetails): Pick<AskEnd, 'value' | 'note' | 'reason' | 'text' | 'images'> {
  return {
    ...(details.value !== undefined ? { value: details.value } : {}),
    ...(details.note ? { note: details.note } : {}),
    ...(details.reason ? { reason: details.reason } : {}),
    ...(details.text ? { text: details.text } : {}),
    ...(details.images?.length ? { images: details.images } : {}),
  };
}
