import type { Clock } from '../../bridge/asks/countdown.js';

/**
 * A clock the test moves by hand: timers fire only when `advance` passes them (or `fireEarly` says a timer came
 * a little early, as real ones may). The wall clock can be stepped apart from the monotonic one, as NTP or a
 * person setting the time steps it.
 */
export class ManualClock implements Clock {
  private time = 1_000_000;
  /** wall clock minus monotonic clock */
  private wallOffset = Date.parse('2026-11-30T10:00:00.000Z') - 1_000_000;
  private timers: Array<{ at: number; fn: () => void; live: boolean }> = [];

  now(): number {
    return this.time;
  }

  wallNow(): number {
    return this.time + this.wallOffset;
  }

  setTimer(fn: () => void, ms: number): () => void {
    const timer = { at: this.time + ms, fn, live: true };
    this.timers.push(timer);
    return () => (timer.live = false);
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.live && t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.time = due.at;
      due.live = false;
      due.fn();
    }
    this.time = until;
  }

  /** Fires now, without moving time, every timer due within `ms`: a timer that came `ms` early. */
  fireEarly(ms: number): number {
    const due = this.timers.filter((t) => t.live && t.at <= this.time + ms);
    for (const timer of due) {
      timer.live = false;
      timer.fn();
    }
    return due.length;
  }

  /** The wall clock jumps by `ms` (negative: back); the monotonic clock does not move. */
  stepWall(ms: number): void {
    this.wallOffset += ms;
  }
}
