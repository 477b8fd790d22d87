import { describe, expect, it } from 'vitest';
import { AgentRegistry } from '../../bridge/agents/registry.js';
import { Asks } from '../../bridge/asks/asks.js';
import { systemClock } from '../../bridge/asks/countdown.js';
import { journalLedger } from '../../bridge/asks/record.js';
import { Inbox } from '../../bridge/inbox/inbox.js';
import { Journal } from '../../bridge/inbox/journal.js';
import { createLogger } from '../../bridge/log.js';
import { tempDir } from '../helpers/bridge.js';
import { FaultyDisk } from '../helpers/faulty-disk.js';

const log = createLogger('test', 'silent');

/** The asks on a real journal (on the given disk), as createBridge wires them. */
function compose(dir: string, disk?: FaultyDisk) {
  const inbox = new Inbox(new Journal({ dir, bridgeVersion: 'test', log, ...(disk ? { disk } : {}) }));
  inbox.replay();
  const asks = new Asks(
    { broadcast: () => undefined },
    systemClock,
    journalLedger({ inbox, agents: new AgentRegistry(60_000), images: { readAll: () => [] }, log }),
  );
  return { inbox, asks };
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
    expect(after.inbox.find(`${ask.askId}.record`)?.payload).toMatchObject({ status: 'answered', value: true });
    expect(after.inbox.find(`${ask.askId}.answer`)).toMatchObject({
      kind: 'user_answer',
      status: 'pending',
      payload: expect.objectContaining({ status: 'answered', value: true, note: 'yes' }),
    });
    expect(after.inbox.takeReplayedAsks().open).toEqual([]);
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
