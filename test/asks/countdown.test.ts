import { describe, expect, it } from 'vitest';
import { Asks } from '../../bridge/asks/asks.js';
import { Countdown, type Clock } from '../../bridge/asks/countdown.js';

/** A clock the test moves by hand: timers fire only when `advance` passes them. */
class ManualClock implements Clock {
  private time = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; live: boolean }> = [];

  now(): number {
    return this.time;
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
}

describe('the ask countdown', () => {
  it('expires at its deadline and not before', () => {
    const clock = new ManualClock();
    let expired = 0;
    const countdown = new Countdown(30_000, () => expired++, clock);
    clock.advance(29_999);
    expect(expired).toBe(0);
    expect(countdown.remainingMs()).toBe(1);
    clock.advance(1);
    expect(expired).toBe(1);
    expect(countdown.remainingMs()).toBe(0);
  });

  it('freezes the remaining time while paused and moves the deadline by the pause', () => {
    const clock = new ManualClock();
    let expired = 0;
    const countdown = new Countdown(30_000, () => expired++, clock);
    const firstDeadline = countdown.deadline();
    clock.advance(10_000);
    countdown.pause();
    clock.advance(60_000);
    expect(expired).toBe(0);
    expect(countdown.paused).toBe(true);
    expect(countdown.remainingMs()).toBe(20_000);
    countdown.resume();
    expect(countdown.deadline()).toBe(firstDeadline + 60_000);
    clock.advance(19_999);
    expect(expired).toBe(0);
    clock.advance(1);
    expect(expired).toBe(1);
  });

  it('ignores a second pause or a resume while running', () => {
    const clock = new ManualClock();
    const countdown = new Countdown(10_000, () => undefined, clock);
    countdown.resume();
    clock.advance(4_000);
    countdown.pause();
    clock.advance(1_000);
    countdown.pause();
    expect(countdown.remainingMs()).toBe(6_000);
  });

  it('never fires once stopped', () => {
    const clock = new ManualClock();
    let expired = 0;
    const countdown = new Countdown(1_000, () => expired++, clock);
    countdown.stop();
    countdown.resume();
    clock.advance(5_000);
    expect(expired).toBe(0);
  });

  it('a time-out says the countdown it ran out of, not the wall time a pause added: 45 s, paused 13 s', async () => {
    const clock = new ManualClock();
    const asks = new Asks({ broadcast: () => undefined }, clock);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship?', timeoutMs: 45_000 });
    clock.advance(20_000);
    asks.act({ askId: ask.askId, action: 'pause' });
    clock.advance(13_000);
    asks.act({ askId: ask.askId, action: 'resume' });
    clock.advance(25_000);
    expect(await ask.outcome).toMatchObject({
      status: 'timed_out',
      text: 'no answer within 45 s (the countdown was paused 13 s)',
    });
  });
});
