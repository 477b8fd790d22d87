import { randomBytes } from 'node:crypto';
import {
  AskEnd,
  AskOpened,
  AskQuestion,
  AskRecord,
  AskSpec,
  AskView,
  DEFAULT_ASK_TIMEOUT_MS,
  MAX_ASK_TIMEOUT_MS,
  pickOf,
  type AnswerBody,
  type AskDecidedBy,
  type AskOutcome,
  type AskStatus,
  type AskUpdate,
  type DecidedOn,
  type ImageRef,
  type Said,
} from '../protocol/index.js';
import { Conflict, NotFound, TooMany } from '../errors.js';
import { DEFAULT_LIMITS, type LimitCounters } from '../limits.js';
import type { HumanHub } from '../window/hub.js';
import { answerValue } from './answer-value.js';
import { Countdown, systemClock, type Clock } from './countdown.js';
import { memoryLedger, type AskLedger } from './ledger.js';
import { outcomeOf } from './outcome.js';
import { PageApprovals } from './page-approvals.js';
import type { OpenAsk } from './replayed.js';

/** One open question to the human. Only Asks changes it; everyone else reads it. */
export interface Ask {
  readonly askId: string;
  readonly spec: AskSpec;
  /** wall-clock ms, for the time shown */
  readonly createdAt: number;
  /** monotonic ms (clock.now()), for how long it has been open */
  readonly openedAt: number;
  readonly countdown: Countdown;
  /** the whole countdown it was given (a restored ask's countdown holds only what was left) */
  readonly timeoutMs: number;
  /** resolves once the ask is on disk and its card shown; rejects (Unavailable) when it could not be written */
  readonly opened: Promise<void>;
  /** resolves once, when the ask ends, whichever way (after its end is on disk) */
  readonly outcome: Promise<AskOutcome>;
  /** the human ticked "allow for this page" (page_command asks) */
  remember: boolean;
  ended?: AskStatus;
  /** who or what ended it, once it ended */
  decidedBy?: AskDecidedBy;
}

interface Entry {
  ask: Ask;
  /** what its card holds, in bytes (the asking agent's budget: limits.askBytesPerAgent) */
  bytes: number;
  resolve: (outcome: AskOutcome) => void;
  listeners: Set<(update: AskUpdate) => void>;
  /** its opening is on disk: the window sees it */
  shown: boolean;
  /** an ending is being written: nothing else may end it meanwhile */
  ending?: AskStatus;
  /** a sync ask whose asker stopped waiting (Asks.handOver): its outcome goes to the agent's inbox */
  handedOver?: boolean;
}

/**
 * How an ask ends, as its ender says it: its end (AskEnd) but the status, with `decidedBy` defaulting to the human
 * for answered and rejected and to the bridge otherwise. `textSaid` is `text` as a code the window says in the
 * human's language (the bridge's words, not the human's).
 */
export type EndDetails = Omit<AskEnd, 'status' | 'decidedBy'> & { decidedBy?: AskDecidedBy };

/** What else an ending does, once it is on disk (before the waiting call hears of it). */
interface Finish {
  /** the human ticked "allow for this page" */
  remember?: boolean;
  /** the human is marked away (a presence ask answered or left unanswered) */
  away?: boolean;
  /** the outcome goes to the agent's inbox too (default: for an async ask) */
  toInbox?: boolean;
}

/** The bytes an ask's card holds: what the window is sent of its question. */
function bytesOf(spec: AskSpec): number {
  return Buffer.byteLength(JSON.stringify(pickOf(AskQuestion, spec)));
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;
}

const ENDED_KEPT = 500;
/** endings the window's `state` carries, so a window that reconnects shows how its cards ended */
const RECENT_ENDS = 50;
/** why an ask the bridge found open at start, that the asking call can no longer receive, ended */
export const RESTARTED = 'the bridge restarted';
const SHUTTING_DOWN = 'the bridge is shutting down; ask again once it is back';

/**
 * Owns the ask lifecycle (README "Asking the human"): created → open → (paused ↔ open) → answered | rejected | timed_out | away |
 * cancelled. Keeps the countdown on the server, tells the window (`ask`, `ask_update`, `presence` on the hub) and
 * resolves each ask's outcome exactly once, with a hint for the agent. Also owns the human's presence.
 *
 * Durable (the ledger, asks/ledger.ts): an ask is written when it opens, before its card shows; a pause or resume
 * and its end are written before anyone hears of them. The human's decision that cannot be written is refused
 * (Unavailable, 503) and the ask stays open; an ending by the bridge or the agent stands even then (the waiting
 * call gets it), and a restart shows that ask again or ends it.
 */
export class Asks {
  private readonly open = new Map<string, Entry>();
  /** how asks ended lately: a late answer gets a clear 409 instead of a 404, a window that reconnects sees how */
  private readonly ends = new Map<string, AskEnd>();
  private isAway = false;
  /** "allow for this page" answers to page_command asks */
  readonly pageApprovals = new PageApprovals();

  constructor(
    private readonly hub: Pick<HumanHub, 'broadcast'>,
    private readonly clock: Clock = systemClock,
    private readonly ledger: AskLedger = memoryLedger,
    private readonly budget: Pick<LimitCounters, 'limits' | 'refused'> = {
      limits: DEFAULT_LIMITS,
      refused: () => undefined,
    },
  ) {}

  /**
   * Opens an ask: written to disk, then the window gets an `ask` event (`ask.opened` says when). Refused (TooMany)
   * when it would take the asking agent past its open asks or their bytes: one agent's questions never crowd out
   * everyone else's on the human's window.
   */
  create(spec: AskSpec): Ask {
    this.checkBudget(spec);
    const askId = `ask-${randomBytes(6).toString('hex')}`;
    const timeoutMs = Math.min(Math.max(1, spec.timeoutMs ?? DEFAULT_ASK_TIMEOUT_MS), MAX_ASK_TIMEOUT_MS);
    const createdAt = this.clock.wallNow();
    const written = this.ledger.opened(
      pickOf(AskOpened, {
        ...spec,
        askId,
        createdAt: new Date(createdAt).toISOString(),
        timeoutMs,
        async: spec.async ?? false,
      }),
    );
    return this.start(askId, spec, { createdAt, timeoutMs, remainingMs: timeoutMs, paused: false }, written).ask;
  }

  private start(
    askId: string,
    spec: AskSpec,
    time: { createdAt: number; timeoutMs: number; remainingMs: number; paused: boolean },
    written: Promise<void>,
  ): Entry {
    let resolve: (outcome: AskOutcome) => void = () => undefined;
    const outcome = new Promise<AskOutcome>((r) => (resolve = r));
    const countdown = new Countdown(time.remainingMs, () => void this.expire(askId), this.clock);
    if (time.paused) countdown.pause();
    const opened = written.then(
      () => {
        if (this.open.get(askId) !== entry) return;
        entry.shown = true;
        this.hub.broadcast('ask', this.view(ask));
      },
      (error: unknown) => {
        countdown.stop();
        if (this.open.get(askId) === entry) this.open.delete(askId);
        throw error;
      },
    );
    // whoever waits on it hears of a failure; nobody waiting is no unhandled rejection
    opened.catch(() => undefined);
    const ask: Ask = {
      askId,
      spec,
      createdAt: time.createdAt,
      // how long it has been open, on the monotonic clock (a restored ask opened before this run)
      openedAt: this.clock.now() - Math.max(0, this.clock.wallNow() - time.createdAt),
      countdown,
      timeoutMs: time.timeoutMs,
      opened,
      outcome,
      remember: false,
    };
    const entry: Entry = { ask, resolve, listeners: new Set(), shown: false, bytes: bytesOf(spec) };
    this.open.set(askId, entry);
    return entry;
  }

  /**
   * The bridge starts with asks its journal saw open. An async ask is shown again with the time it had left (it ends
   * at once as timed out when that ran out while the bridge was stopped); a sync ask's call died with the bridge,
   * so it ends `cancelled` ("the bridge restarted"). Every ending goes to History and the agent's inbox.
   */
  async restore(found: OpenAsk[]): Promise<void> {
    const endings: Array<Promise<boolean>> = [];
    for (const { ask: opened, countdown } of found) {
      const spec = pickOf(AskSpec, opened);
      const createdAt = Date.parse(opened.createdAt);
      const now = this.clock.wallNow();
      const paused = countdown?.paused ?? false;
      const left = countdown
        ? paused
          ? countdown.remainingMs
          : countdown.remainingMs - (now - Date.parse(countdown.at))
        : opened.timeoutMs - (now - createdAt);
      const entry = this.start(
        opened.askId,
        spec,
        { createdAt, timeoutMs: opened.timeoutMs, remainingMs: Math.max(1, left), paused },
        Promise.resolve(),
      );
      await entry.ask.opened;
      if (!opened.async)
        endings.push(
          this.finish(
            entry,
            'cancelled',
            { text: RESTARTED, textSaid: { code: 'bridge_restarted' }, decidedBy: 'bridge' },
            { toInbox: true },
          ),
        );
      else if (!paused && left <= 0) endings.push(this.expire(opened.askId));
    }
    await Promise.all(endings);
  }

  /**
   * The outcome of an ask that never opened (e.g. the human is away): same shape, same hints, and on record
   * like every other ask, though no card was shown. Resolves once the record is on disk.
   */
  async immediate(spec: AskSpec, status: AskStatus, details: EndDetails = {}): Promise<AskOutcome> {
    const askId = `ask-${randomBytes(6).toString('hex')}`;
    const now = new Date(this.clock.wallNow()).toISOString();
    const end = this.endOf(status, details);
    const outcome = outcomeOf(askId, spec.kind, end);
    await this.ledger.ended(recordOf(askId, spec, { createdAt: now, endedAt: now, shown: false }, end), outcome, false);
    return outcome;
  }

  private checkBudget(spec: AskSpec): void {
    const { askBytesPerAgent, asksPerAgent } = this.budget.limits;
    const mine = [...this.open.values()].filter((e) => e.ask.spec.agentId === spec.agentId);
    if (mine.length >= asksPerAgent) {
      this.budget.refused('asksPerAgent');
      throw new TooMany(
        `agent "${spec.agentId}" has ${mine.length} asks open, the most one agent may have (limit asksPerAgent ${asksPerAgent}): wait for an answer, or ask fewer things at once`,
      );
    }
    const held = mine.reduce((sum, e) => sum + e.bytes, 0);
    const bytes = bytesOf(spec);
    if (held + bytes > askBytesPerAgent) {
      this.budget.refused('askBytesPerAgent');
      throw new TooMany(
        `this ask (${kib(bytes)}) and agent "${spec.agentId}"'s open asks (${kib(held)}) would pass ${kib(askBytesPerAgent)}, what one agent's open asks may hold (limit askBytesPerAgent): wait for an answer, or put the details in a file and name it in a shorter prompt`,
      );
    }
  }

  get(askId: string): Ask | undefined {
    return this.open.get(askId)?.ask;
  }

  /** Open asks, oldest first, as the window shows them. */
  views(): AskView[] {
    return [...this.open.values()].filter((e) => e.shown).map((e) => this.view(e.ask));
  }

  /** Open asks of one agent (bridge_status). */
  forAgent(agentId: string): AskView[] {
    return this.views().filter((v) => v.agentId === agentId);
  }

  /** How the newest asks ended, newest last (the window's `state`). */
  recentEnds(): Array<{ askId: string; outcome: AskEnd }> {
    return [...this.ends].slice(-RECENT_ENDS).map(([askId, outcome]) => ({ askId, outcome }));
  }

  view(ask: Ask): AskView {
    const { spec, countdown } = ask;
    return pickOf(AskView, {
      ...spec,
      askId: ask.askId,
      async: spec.async === true ? true : undefined,
      createdAt: new Date(ask.createdAt).toISOString(),
      deadline: new Date(countdown.deadline()).toISOString(),
      remainingMs: Math.round(countdown.remainingMs()),
      paused: countdown.paused,
    });
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
   * POST /bridge/answer: the human answers, rejects, pauses or resumes. Any of these means they are here. Resolves
   * once the decision is on disk (then the agent hears of it); a decision that cannot be written throws Unavailable
   * and changes nothing. `saveImages` keeps the answer's images once the answer is known to be valid (nothing is
   * stored for a 4xx).
   */
  // Stryker disable next-line ArrowFunction,ArrayDeclaration: unreachable, the window's route passes its saver
  async act(
    body: AnswerBody,
    saveImages: () => Promise<ImageRef[]> = () => Promise.resolve([]),
    decidedOn?: DecidedOn,
  ): Promise<AskUpdate> {
    const entry = this.open.get(body.askId);
    // an ask whose card is on its way (its opening being written) is answered once it is written
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: unreachable from the window, which learns an ask's id from its card
    if (entry && !entry.shown) await entry.ask.opened.catch(() => undefined);
    if (!entry?.shown) {
      const end = this.ends.get(body.askId);
      if (end) throw new Conflict(`ask "${body.askId}" has already ended (${end.status})`, 'askId');
      throw new NotFound(`no ask "${body.askId}"; open asks: ${this.list()}`, 'askId');
    }
    if (entry.ending)
      throw new Conflict(`ask "${body.askId}" is ending right now (${entry.ending}); nothing was changed`, 'askId');
    const { ask } = entry;
    // Validate before touching any state, so a bad answer changes nothing.
    const value = body.action === 'answer' ? answerValue(ask.spec, body.value) : undefined;
    const on = decidedOn ? { decidedOn } : {};
    this.setAway(false);
    switch (body.action) {
      case 'pause':
      case 'resume':
        await this.moveCountdown(entry, body.action === 'pause');
        break;
      case 'reject':
        await this.decide(entry, 'rejected', {
          reason: body.reason ?? 'other',
          ...(body.note ? { text: body.note } : {}),
          ...on,
        });
        break;
      case 'answer': {
        const images = body.images?.length ? await saveImages() : [];
        const note = { ...(body.note ? { note: body.note } : {}), ...(images.length ? { images } : {}), ...on };
        // only the page gate reads it, for its page_command asks
        const remember = body.remember === true;
        if (ask.spec.kind === 'user_presence' && value === 'away')
          await this.decide(entry, 'away', { value, ...note, decidedBy: 'human' }, { away: true });
        else await this.decide(entry, 'answered', { value, ...note }, { remember });
        break;
      }
    }
    return this.update(ask);
  }

  /**
   * The human's ending: written first. A time-out or a withdrawal that got there first was refused by act (409), in
   * the same turn, so finish cannot say no here; were it to, the human hears it.
   */
  private async decide(entry: Entry, status: AskStatus, details: EndDetails, options: Finish = {}): Promise<void> {
    const ended = await this.finish(entry, status, details, options);
    // Stryker disable next-line all: unreachable, act refuses a decision once another ending began
    if (!ended) throw new Conflict(`ask "${entry.ask.askId}" has already ended`, 'askId');
  }

  /** Pause or resume: the time left is written first, then the countdown moves and everyone hears of it. */
  private async moveCountdown(entry: Entry, pause: boolean): Promise<void> {
    const { countdown, askId, spec } = entry.ask;
    if (countdown.paused === pause) return;
    const at = new Date(this.clock.wallNow()).toISOString();
    await this.ledger.countdown(spec.agentId, {
      askId,
      paused: pause,
      remainingMs: Math.round(countdown.remainingMs()),
      at,
    });
    // an ending began meanwhile (it stays set once the ask ended)
    if (entry.ending) return;
    if (pause) countdown.pause();
    else countdown.resume();
    this.changed(entry);
  }

  /** Ends an open ask; resolves false when it had already ended. The outcome resolves and the window is told. */
  end(askId: string, status: AskStatus, details: EndDetails = {}): Promise<boolean> {
    const entry = this.open.get(askId);
    return entry ? this.finish(entry, status, details) : Promise.resolve(false);
  }

  /**
   * The asker of a sync ask stops waiting (its client's time-out is near) but the question stays open: its outcome
   * will go to the agent's inbox, as an async ask's does, also after a restart (the hand-over is journaled before
   * this resolves). False when it ended, or is ending, already. A hand-over the disk refused still holds while the
   * bridge runs (the journal's health says the disk failed); a restart then ends the ask in the inbox.
   */
  async handOver(askId: string): Promise<boolean> {
    const entry = this.open.get(askId);
    if (!entry || entry.ending) return false;
    // from now on an ending goes to the inbox, also one that lands while the line is written
    entry.handedOver = true;
    const { ask } = entry;
    await ask.opened.catch(() => undefined);
    await this.ledger
      .handedOver(ask.spec.agentId, askId, new Date(this.clock.wallNow()).toISOString())
      .catch(() => undefined);
    return true;
  }

  /** Withdraws an ask: by default the agent did (its call was cancelled or its client left). */
  cancel(askId: string, text: string, decidedBy: AskDecidedBy = 'agent', textSaid?: Said): Promise<boolean> {
    return this.end(askId, 'cancelled', { text, decidedBy, textSaid });
  }

  /**
   * The one way an ask ends: its record (and, for an async ask, the agent's answer) is written, then the ask ends in
   * memory, the window and the waiting call hear of it. False when another ending is under way or done.
   */
  private async finish(entry: Entry, status: AskStatus, details: EndDetails, options: Finish = {}): Promise<boolean> {
    const { ask } = entry;
    // set until the ask ended, and for good once it did
    if (entry.ending) return false;
    entry.ending = status;
    const end = this.endOf(status, details);
    const outcome = outcomeOf(ask.askId, ask.spec.kind, end);
    const times = {
      createdAt: new Date(ask.createdAt).toISOString(),
      endedAt: new Date(this.clock.wallNow()).toISOString(),
      shown: true,
    };
    try {
      await ask.opened;
      await this.ledger.ended(
        recordOf(ask.askId, ask.spec, times, end),
        outcome,
        options.toInbox ?? (ask.spec.async === true || entry.handedOver === true),
      );
    } catch (error) {
      if (end.decidedBy === 'human') {
        entry.ending = undefined;
        // the time ran out while the answer was being written: the ask ends as it would have
        if (!ask.countdown.paused && ask.countdown.remainingMs() === 0) void this.expire(ask.askId);
        throw error;
      }
    }
    ask.countdown.stop();
    ask.ended = status;
    ask.decidedBy = end.decidedBy;
    if (options.remember) ask.remember = true;
    if (options.away) this.setAway(true);
    this.open.delete(ask.askId);
    this.ends.set(ask.askId, end);
    // Stryker disable next-line LogicalOperator,StringLiteral: unreachable, a map past ENDED_KEPT entries has a first key
    if (this.ends.size > ENDED_KEPT) this.ends.delete(this.ends.keys().next().value ?? '');
    // an ask whose opening could not be written was never shown: the window knows nothing of it
    if (entry.shown) this.changed(entry, end);
    entry.resolve(outcome);
    return true;
  }

  private endOf(status: AskStatus, details: EndDetails): AskEnd {
    return pickOf(AskEnd, {
      ...details,
      status,
      decidedBy: details.decidedBy ?? (status === 'answered' || status === 'rejected' ? 'human' : 'bridge'),
    });
  }

  private async expire(askId: string): Promise<boolean> {
    const entry = this.open.get(askId);
    if (!entry) return false;
    const { ask } = entry;
    // the time it was given: time spent paused is not time the human let pass (nor is an expiry that came late,
    // because an answer was being written or the machine was busy), and a restored ask had it all, not only what
    // its countdown held after the restart
    const paused = Math.round(ask.countdown.pausedMs() / 1000);
    const seconds = Math.round(ask.timeoutMs / 1000);
    const text = `no answer within ${seconds} s${paused > 0 ? ` (the countdown was paused ${paused} s)` : ''}`;
    const textSaid: Said = {
      code: 'no_answer_within',
      values: { seconds, ...(paused > 0 ? { pausedSeconds: paused } : {}) },
    };
    // No answer to "are you there?" is itself the answer.
    if (ask.spec.kind === 'user_presence')
      return this.finish(entry, 'away', { value: 'away', text, textSaid }, { away: true });
    return this.finish(entry, 'timed_out', { text, textSaid });
  }

  private changed(entry: Entry, end?: AskEnd): void {
    const update = this.update(entry.ask, end);
    this.hub.broadcast('ask_update', update);
    for (const listener of entry.listeners) listener(update);
  }

  private list(): string {
    const shown = [...this.open.values()].filter((e) => e.shown).map((e) => e.ask.askId);
    return shown.length ? shown.join(', ') : 'none';
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

  /**
   * The bridge stops. A sync ask ends as cancelled, decided by the bridge, with the reason (its call answers before
   * the sockets close); an async ask stays open on disk and is shown again when the bridge is back. Resolves once
   * those endings are written.
   */
  async close(): Promise<void> {
    const endings: Array<Promise<boolean>> = [];
    for (const entry of [...this.open.values()]) {
      // a handed-over ask's journal says sync: at the next start it would end "restarted", so it ends here, saying why
      if (entry.ask.spec.async) entry.ask.countdown.stop();
      else
        endings.push(
          this.finish(entry, 'cancelled', {
            text: SHUTTING_DOWN,
            textSaid: { code: 'bridge_shutting_down' },
            decidedBy: 'bridge',
          }),
        );
    }
    await Promise.all(endings);
  }
}

/** The record of an ended ask (History, the journal): what was asked, how it ended, who decided. */
function recordOf(
  askId: string,
  spec: AskSpec,
  times: { createdAt: string; endedAt: string; shown: boolean },
  end: AskEnd,
): AskRecord {
  return pickOf(AskRecord, { ...spec, ...end, ...times, askId, async: spec.async ?? false });
}
