/** Time as the countdown sees it; tests pass a clock they move by hand. */
export interface Clock {
  /** monotonic ms: deadlines and time left, which a wall-clock step (NTP, the human setting the time) never moves */
  now(): number;
  /** wall-clock ms: only for the times people read (when an ask was made, the ISO deadline) */
  wallNow(): number;
  /** runs `fn` after `ms`; returns the function that cancels it */
  setTimer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  wallNow: () => Date.now(),
  setTimer(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    // Stryker disable next-line ArrowFunction: equivalent, a timer not cancelled fires into the checks of arm()
    return () => clearTimeout(timer);
  },
};

/**
 * The server-side countdown of one ask. The window and the agent both read it, so they see the same remaining
 * time. Pausing freezes the remaining time; resuming starts it again from there, so the deadline moves later.
 */
export class Countdown {
  private deadlineAt: number;
  private frozenMs: number | undefined;
  /** when the running pause began, and how long the pauses before it lasted (monotonic ms) */
  private pausedSince = 0;
  private pausedBefore = 0;
  private cancelTimer: (() => void) | undefined;
  private stopped = false;

  constructor(
    /** the time it runs for, pauses not counted */
    readonly durationMs: number,
    private readonly onExpire: () => void,
    private readonly clock: Clock = systemClock,
  ) {
    this.deadlineAt = clock.now() + durationMs;
    this.arm();
  }

  get paused(): boolean {
    return this.frozenMs !== undefined;
  }

  remainingMs(): number {
    if (this.frozenMs !== undefined) return this.frozenMs;
    return Math.max(0, this.deadlineAt - this.clock.now());
  }

  /** How long it has been paused in all, the running pause included: time that did not count. */
  pausedMs(): number {
    return this.pausedBefore + (this.frozenMs === undefined ? 0 : this.clock.now() - this.pausedSince);
  }

  /**
   * When the time runs out if nobody pauses again (while paused, as if resumed now), in wall-clock ms for the
   * ISO deadline shown: the time left, read on the monotonic clock, from the wall clock's now.
   */
  deadline(): number {
    return this.clock.wallNow() + this.remainingMs();
  }

  pause(): void {
    if (this.stopped || this.frozenMs !== undefined) return;
    this.frozenMs = this.remainingMs();
    this.pausedSince = this.clock.now();
    // Stryker disable next-line OptionalChaining: equivalent, a running countdown always has its timer
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  resume(): void {
    if (this.stopped || this.frozenMs === undefined) return;
    this.deadlineAt = this.clock.now() + this.frozenMs;
    this.pausedBefore += this.clock.now() - this.pausedSince;
    this.frozenMs = undefined;
    this.arm();
  }

  /** The ask ended: the countdown never fires again. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  private arm(): void {
    this.cancelTimer?.();
    this.cancelTimer = this.clock.setTimer(
      () => {
        // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, stop() and pause() cancel this timer
        if (this.stopped || this.frozenMs !== undefined) return;
        // A timer may fire a little early; wait out the rest rather than end the ask before its deadline.
        if (this.deadlineAt > this.clock.now()) return this.arm();
        // Stryker disable next-line BooleanLiteral: equivalent, the ask's ending stops it again before anyone pauses
        this.stopped = true;
        this.onExpire();
      },
      Math.max(0, this.deadlineAt - this.clock.now()),
    );
  }
}
