import { describe, expect, it } from 'vitest';
import type { Asker } from '../../bridge/asks/asker.js';
import { Asks } from '../../bridge/asks/asks.js';
import { waitForHuman } from '../../bridge/asks/wait.js';

describe('progress while the human thinks', () => {
  it('a long ask sends progress all through the wait, not only at its start', async () => {
    const asks = new Asks({ broadcast: () => undefined });
    const notes: Array<{ at: number; message: string }> = [];
    const asker: Asker = {
      agentId: 'claude',
      signal: new AbortController().signal,
      progress: (message) => {
        notes.push({ at: performance.now(), message });
        return Promise.resolve();
      },
    };
    // a progress period of 40 ms stands for the real 5 s; the ask lasts fifteen periods
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 600 });
    const started = performance.now();
    const outcome = await waitForHuman(asks, asker, ask, 40);
    const ended = performance.now();
    expect(outcome).toMatchObject({ status: 'timed_out' });
    // one at once and one a period (a loaded machine delays timers, so fewer count too)
    expect(notes.length).toBeGreaterThanOrEqual(8);
    expect(notes.every((n) => /waiting for the human to answer, \d+ s left/.test(n.message))).toBe(true);
    // the last note came late in the wait: a client that drops silent calls never sees a gap
    expect(notes[notes.length - 1]?.at ?? 0).toBeGreaterThan(started + (ended - started) * 0.6);
  });
});
