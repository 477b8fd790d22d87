import { describe, expect, it } from 'vitest';
import { Asks } from '../../bridge/asks/asks.js';
import { Countdown } from '../../bridge/asks/countdown.js';
import { ManualClock } from '../helpers/manual-clock.js';

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

  it('a timer that fires early does not end the ask before its deadline', () => {
    const clock = new ManualClock();
    let expired = 0;
    const countdown = new Countdown(30_000, () => expired++, clock);
    clock.advance(29_990);
    expect(clock.fireEarly(15)).toBe(1);
    expect(expired).toBe(0);
    expect(countdown.remainingMs()).toBe(10);
    clock.advance(9);
    expect(expired).toBe(0);
    clock.advance(1);
    expect(expired).toBe(1);
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

  it('counts every pause, however often it is pressed', () => {
    const clock = new ManualClock();
    const countdown = new Countdown(10_000, () => undefined, clock);
    countdown.pause();
    clock.advance(5_000);
    countdown.pause();
    clock.advance(5_000);
    countdown.resume();
    clock.advance(1_000);
    countdown.pause();
    clock.advance(3_000);
    expect(countdown.pausedMs()).toBe(13_000);
    expect(countdown.remainingMs()).toBe(9_000);
  });

  it('a countdown stopped while paused never fires, even resumed', () => {
    const clock = new ManualClock();
    let expired = 0;
    const countdown = new Countdown(1_000, () => expired++, clock);
    countdown.pause();
    countdown.stop();
    countdown.resume();
    clock.advance(5_000);
    expect(expired).toBe(0);
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
    await ask.opened;
    clock.advance(20_000);
    await asks.act({ askId: ask.askId, action: 'pause' });
    clock.advance(13_000);
    await asks.act({ askId: ask.askId, action: 'resume' });
    clock.advance(25_000);
    expect(await ask.outcome).toMatchObject({
      status: 'timed_out',
      text: 'no answer within 45 s (the countdown was paused 13 s)',
    });
  });
});
