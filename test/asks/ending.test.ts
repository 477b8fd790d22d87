import { describe, expect, it } from 'vitest';
import type { Asker } from '../../bridge/asks/asker.js';
import { Asks } from '../../bridge/asks/asks.js';
import { waitForHuman } from '../../bridge/asks/wait.js';
import { Conflict, NotFound } from '../../bridge/errors.js';
import type { AskEnd, AskUpdate } from '../../bridge/protocol/index.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { waitFor } from '../helpers/wait.js';

/**
 * How an ask ends, as the waiting call and the window see it: the outcome, the progress notes, the answers to late
 * decisions. Asks here keep nothing on disk (durable-answer.test.ts has them on a journal).
 */

function asker(signal = new AbortController().signal): Asker & { notes: string[] } {
  const notes: string[] = [];
  return {
    agentId: 'claude',
    signal,
    notes,
    progress: (message) => {
      notes.push(message);
      return Promise.resolve();
    },
  };
}

/** A progress period longer than any of these tests: only the notes the wait sends by itself count. */
const HOUR = 3_600_000;

describe('how an ask ends', () => {
  it('a rejection without a reason is reported as "other"', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    await ask.opened;
    await asks.act({ askId: ask.askId, action: 'reject' });
    expect(await ask.outcome).toMatchObject({ status: 'rejected', reason: 'other' });
  });

  it('the last 500 endings answer a late decision 409, older ones 404', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ids: string[] = [];
    for (let i = 0; i < 501; i++) {
      const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: `#${i}` });
      await ask.opened;
      await asks.cancel(ask.askId, 'withdrawn');
      ids.push(ask.askId);
    }
    const late = (askId: string) => asks.act({ askId, action: 'answer', value: true });
    await expect(late(ids[0] ?? '')).rejects.toThrow(NotFound);
    await expect(late(ids[1] ?? '')).rejects.toThrow(Conflict);
    await expect(late(ids[1] ?? '')).rejects.toThrow(`ask "${ids[1]}" has already ended (cancelled)`);
    // the answer names the field at fault, as every 4xx does
    await expect(late(ids[0] ?? '')).rejects.toMatchObject({ field: 'askId' });
    await expect(late(ids[1] ?? '')).rejects.toMatchObject({ field: 'askId' });
  });

  it('a text answer that reads "away" is an answer, and leaves the human present', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_input', agentId: 'claude', prompt: 'Where is the file?' });
    await ask.opened;
    await asks.act({ askId: ask.askId, action: 'answer', value: 'away' });
    expect(await ask.outcome).toMatchObject({ status: 'answered', value: 'away' });
    expect(asks.away).toBe(false);
  });

  it('"away" to a presence ask is the human’s own word; no answer is the bridge’s, and says away too', async () => {
    const clock = new ManualClock();
    const asks = new Asks({ broadcast: () => undefined }, clock);
    const answered = asks.create({ kind: 'user_presence', agentId: 'claude', prompt: 'Still there?' });
    await answered.opened;
    await asks.act({ askId: answered.askId, action: 'answer', value: 'away' });
    expect(await answered.outcome).toMatchObject({ status: 'away', value: 'away' });
    const ends = () => new Map(asks.recentEnds().map((e): [string, AskEnd] => [e.askId, e.outcome]));
    expect(ends().get(answered.askId)).toMatchObject({ status: 'away', decidedBy: 'human' });
    const unanswered = asks.create({
      kind: 'user_presence',
      agentId: 'claude',
      prompt: 'Still there?',
      timeoutMs: 10_000,
    });
    await unanswered.opened;
    clock.advance(10_000);
    expect(await unanswered.outcome).toMatchObject({ status: 'away', value: 'away', text: 'no answer within 10 s' });
    expect(ends().get(unanswered.askId)).toMatchObject({ decidedBy: 'bridge' });
  });

  it('the images the human pasted into an answer reach the agent with it', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_input', agentId: 'claude', prompt: 'What does it look like?' });
    await ask.opened;
    const kept = [{ id: 'img-0123456789abcdef', mimeType: 'image/png' as const, bytes: 42 }];
    await asks.act(
      {
        askId: ask.askId,
        action: 'answer',
        value: 'like this',
        images: [{ mimeType: 'image/png', data: 'iVBORw0KGgo=' }],
      },
      () => Promise.resolve(kept),
    );
    expect(await ask.outcome).toMatchObject({ status: 'answered', value: 'like this', images: kept });
  });

  it('a pause the human pressed while the agent withdrew the ask is not shown as a pause', async () => {
    const updates: AskUpdate[] = [];
    const asks = new Asks({
      broadcast: (event, data) => (event === 'ask_update' ? updates.push(data as AskUpdate) : undefined),
    });
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    await ask.opened;
    // both in one turn: the withdrawal is under way when the pause has been "written"
    const pausing = asks.act({ askId: ask.askId, action: 'pause' });
    const cancelling = asks.cancel(ask.askId, 'withdrawn');
    await Promise.allSettled([pausing, cancelling]);
    expect(await ask.outcome).toMatchObject({ status: 'cancelled' });
    expect(updates.filter((u) => u.paused)).toEqual([]);
  });
});

describe('the wait of a tool call', () => {
  it('sends no progress once the human answered', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 60_000 });
    await ask.opened;
    const caller = asker();
    const waiting = waitForHuman(asks, caller, ask, HOUR);
    expect(caller.notes).toEqual([expect.stringMatching(/: waiting for the human to answer, (60|59) s left$/)]);
    await asks.act({ askId: ask.askId, action: 'pause' });
    expect(caller.notes[1]).toMatch(/paused by the human with \d+ s left; the countdown resumes when they resume/);
    await asks.act({ askId: ask.askId, action: 'answer', value: true });
    expect(await waiting).toMatchObject({ status: 'answered', value: true });
    expect(caller.notes).toHaveLength(2);
  });

  it('a call cancelled before its wait began withdraws the question at once', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: HOUR });
    await ask.opened;
    const cancelled = new AbortController();
    cancelled.abort();
    expect(await waitForHuman(asks, asker(cancelled.signal), ask, HOUR)).toMatchObject({
      status: 'cancelled',
      text: 'the tool call was cancelled or the client disconnected',
    });
    expect(asks.views()).toEqual([]);
  });
});

describe('progress while the countdown is paused', () => {
  it('every note while paused says so, with the time left', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 60_000 });
    await ask.opened;
    const caller = asker();
    const waiting = waitForHuman(asks, caller, ask, 20);
    await asks.act({ askId: ask.askId, action: 'pause' });
    const heard = caller.notes.length;
    await waitFor(() => caller.notes.length > heard + 2, 5000, 'notes from the period while paused');
    for (const note of caller.notes.slice(heard - 1))
      expect(note).toMatch(/: paused by the human with (60|59) s left; the countdown resumes when they resume$/);
    await asks.cancel(ask.askId, 'done');
    await waiting;
  });
});
