import { describe, expect, it } from 'vitest';
import { Asks } from '../../bridge/asks/asks.js';
import { systemClock, type Clock } from '../../bridge/asks/countdown.js';
import { ReplayedAsks } from '../../bridge/asks/replayed.js';
import { createLogger } from '../../bridge/log.js';
import type { AskUpdate } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { FaultyDisk } from '../helpers/faulty-disk.js';
import { askLedger, openInbox } from '../helpers/inbox.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { waitFor } from '../helpers/wait.js';

const log = createLogger('test', 'silent');

/** The asks on a real journal (on the given disk), as createBridge wires them. */
function compose(dir: string, disk?: FaultyDisk, clock: Clock = systemClock) {
  const found = new ReplayedAsks();
  const { inbox, journal } = openInbox(dir, { log, asks: found, ...(disk ? { disk } : {}) });
  const asks = new Asks({ broadcast: () => undefined }, clock, askLedger(journal, inbox, log));
  return { inbox, asks, found };
}

describe('the human’s answer is on disk before it is acknowledged', () => {
  it('a power cut right after an acknowledged answer keeps its record and the agent’s answer', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { asks } = compose(dir, disk);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', async: true });
    await ask.opened;
    const update = await asks.act({ askId: ask.askId, action: 'answer', value: true, note: 'yes' });
    expect(update).toMatchObject({ status: 'answered' });
    disk.powerCut();

    const after = compose(dir);
    expect((await after.inbox.find(`${ask.askId}.record`))?.payload).toMatchObject({ status: 'answered', value: true });
    expect(await after.inbox.find(`${ask.askId}.answer`)).toMatchObject({
      kind: 'user_answer',
      status: 'pending',
      payload: expect.objectContaining({ status: 'answered', value: true, note: 'yes' }),
    });
    expect(after.found.sort(after.inbox).open).toEqual([]);
  });

  it('an answer that cannot be written is refused, the ask stays open, and once there is room it is taken', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { asks } = compose(dir, disk);
    const ask = asks.create({ kind: 'user_input', agentId: 'claude', prompt: 'Name?', async: true });
    await ask.opened;
    let ended = false;
    void ask.outcome.then(() => (ended = true));
    disk.freeBytes = 0;
    await expect(asks.act({ askId: ask.askId, action: 'answer', value: 'users' })).rejects.toThrow(/ENOSPC/);
    await expect(asks.act({ askId: ask.askId, action: 'pause' })).rejects.toThrow(/ENOSPC/);
    expect(asks.views().map((v) => [v.askId, v.paused])).toEqual([[ask.askId, false]]);
    expect(ended).toBe(false);
    disk.freeBytes = Infinity;
    await asks.act({ askId: ask.askId, action: 'answer', value: 'users' });
    expect(await ask.outcome).toMatchObject({ status: 'answered', value: 'users' });
    expect(asks.views()).toEqual([]);
  });

  it('an ask is on disk before its card shows: one that cannot be written is never shown', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { asks } = compose(dir, disk);
    disk.freeBytes = 0;
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    expect(asks.views()).toEqual([]);
    await expect(ask.opened).rejects.toThrow(/ENOSPC/);
    expect(asks.views()).toEqual([]);
  });
});

describe('an ask whose ending is being written', () => {
  it('a second decision meanwhile is refused, saying the ask is ending, and changes nothing', async () => {
    const disk = new FaultyDisk();
    const { asks } = compose(tempDir(), disk);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', async: true });
    await ask.opened;
    const release = disk.holdSyncs();
    const answering = asks.act({ askId: ask.askId, action: 'answer', value: true });
    await waitFor(() => disk.syncing > 0, 5000, 'the answer in its fsync');
    // a 409 (Conflict) whose `field` is the ask id the window sent
    for (const action of ['reject', 'pause'] as const)
      await expect(asks.act({ askId: ask.askId, action })).rejects.toMatchObject({
        name: 'Conflict',
        message: `ask "${ask.askId}" is ending right now (answered); nothing was changed`,
        field: 'askId',
      });
    release();
    expect(await answering).toMatchObject({ status: 'answered' });
    expect(await ask.outcome).toMatchObject({ status: 'answered', value: true });
  });

  it('the time runs out while the human’s answer is written, and the write fails: the ask ends timed out', async () => {
    const disk = new FaultyDisk();
    const clock = new ManualClock();
    const { asks } = compose(tempDir(), disk, clock);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 30_000 });
    await ask.opened;
    clock.advance(29_000);
    const release = disk.holdSyncs();
    disk.failSync = 1;
    const answering = asks.act({ askId: ask.askId, action: 'answer', value: true });
    await waitFor(() => disk.syncing > 0, 5000, 'the answer in its fsync');
    clock.advance(2_000); // the deadline passes meanwhile
    release();
    await expect(answering).rejects.toThrow(/EIO/);
    expect(await ask.outcome).toMatchObject({ status: 'timed_out', text: 'no answer within 30 s' });
    expect(asks.views()).toEqual([]);
  });

  it('a time-out that cannot be written still ends the ask for the agent', async () => {
    const disk = new FaultyDisk();
    const clock = new ManualClock();
    const { asks } = compose(tempDir(), disk, clock);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 30_000 });
    await ask.opened;
    disk.freeBytes = 0;
    clock.advance(30_000);
    expect(await ask.outcome).toMatchObject({ status: 'timed_out' });
    expect(asks.views()).toEqual([]);
  });
});

describe('decisions that change nothing write nothing', () => {
  it('pausing an ask that is paused answers at once, even on a full disk', async () => {
    const disk = new FaultyDisk();
    const { asks } = compose(tempDir(), disk);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', async: true });
    await ask.opened;
    await asks.act({ askId: ask.askId, action: 'pause' });
    disk.freeBytes = 0;
    expect(await asks.act({ askId: ask.askId, action: 'pause' })).toMatchObject({ status: 'open', paused: true });
  });

  it('the agent withdrawing an ask while the human’s answer is written: the answer stands, told once', async () => {
    const disk = new FaultyDisk();
    const updates: AskUpdate[] = [];
    const { inbox, journal } = openInbox(tempDir(), { log, disk });
    const asks = new Asks(
      { broadcast: (event, data) => (event === 'ask_update' ? updates.push(data as AskUpdate) : undefined) },
      systemClock,
      askLedger(journal, inbox, log),
    );
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    await ask.opened;
    const release = disk.holdSyncs();
    const answering = asks.act({ askId: ask.askId, action: 'answer', value: true });
    await waitFor(() => disk.syncing > 0, 5000, 'the answer in its fsync');
    expect(await asks.cancel(ask.askId, 'the call was cancelled')).toBe(false);
    release();
    await answering;
    expect(await ask.outcome).toMatchObject({ status: 'answered', value: true });
    expect(updates.map((u) => u.status)).toEqual(['answered']);
    expect(asks.recentEnds()).toEqual([{ askId: ask.askId, outcome: expect.objectContaining({ status: 'answered' }) }]);
  });
});
