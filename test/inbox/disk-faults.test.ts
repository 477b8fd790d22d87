import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../bridge/log.js';
import { tempDir } from '../helpers/bridge.js';
import { FaultyDisk } from '../helpers/faulty-disk.js';
import { openInbox as open, pushAtOnce as push, recordingLog } from '../helpers/inbox.js';

async function replayedIds(dir: string, log?: Logger): Promise<Map<string, string>> {
  const { inbox } = open(dir, log ? { log } : {});
  const messages = (await inbox.history({ agentId: 'claude', limit: 100_000 })).messages;
  await inbox.close();
  return new Map(messages.map((m) => [m.id, m.status]));
}

describe('the journal on a disk that fails', () => {
  it('acknowledges a push only once an fsync covered it: a power cut right after loses none of them', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const first = await push(inbox, 150, 'burst');
    const second = await push(inbox, 50, 'later');
    expect(first.refused).toEqual([]);
    expect(second.refused).toEqual([]);
    expect(disk.syncs).toBeGreaterThan(0);
    // the machine loses power now: the page cache (whatever was written but not fsynced) is gone
    disk.powerCut();
    const stored = await replayedIds(dir);
    expect([...first.ok, ...second.ok].filter((id) => !stored.has(id))).toEqual([]);
  });

  it('when the disk fills up, refuses pushes with a clear error, tears no line, and keeps every acknowledged one', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox, journal } = open(dir, { disk });
    const before = await push(inbox, 20, 'before');
    disk.freeBytes = 700; // room for a few lines, then a short write and ENOSPC
    const during = await push(inbox, 30, 'during');
    expect(during.refused.length).toBeGreaterThan(0);
    // it names the file it could not write, what failed and what to do
    expect(during.refused[0]).toMatch(
      /could not write to .*claude.*\.jsonl: ENOSPC.*free disk space: nothing acknowledged was lost/,
    );
    expect(journal.health()).toMatchObject({ ok: false, problem: expect.stringMatching(/ENOSPC/) });
    // the refused batch was cut off, so what still fits is taken
    const alone = await push(inbox, 1, 'alone');
    disk.freeBytes = Infinity;
    const after = await push(inbox, 20, 'after');
    expect(after.refused).toEqual([]);
    expect(journal.health()).toEqual({ ok: true });
    await inbox.close();

    const { log, warnings } = recordingLog();
    const stored = await replayedIds(dir, log);
    const acknowledged = [...before.ok, ...during.ok, ...alone.ok, ...after.ok];
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
    // nothing refused came back, and no line was torn (every line read whole)
    expect(stored.size).toBe(acknowledged.length);
    expect(warnings).toEqual([]);
    for (const name of readdirSync(join(dir, 'claude')))
      expect(readFileSync(join(dir, 'claude', name), 'utf8')).toMatch(/^(\{.*\}\n)*$/);
  });

  it('an fsync that fails refuses its batch and moves to a new file; the next push is kept', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const kept = await push(inbox, 5, 'kept');
    disk.failSync = 1;
    const failed = await push(inbox, 5, 'failed');
    expect(failed.refused).toHaveLength(5);
    expect(failed.refused[0]).toMatch(/EIO/);
    const next = await push(inbox, 5, 'next');
    expect(next.refused).toEqual([]);
    expect(readdirSync(join(dir, 'claude'))).toHaveLength(2);
    await inbox.close();
    const stored = await replayedIds(dir);
    expect([...kept.ok, ...next.ok].every((id) => stored.has(id))).toBe(true);
  });

  it('a file system that turns read-only refuses pushes, saying to make the data dir writable; then works again', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox, journal } = open(dir, { disk });
    const before = await push(inbox, 3, 'before');
    disk.refuseWrites = 'EROFS';
    const during = await push(inbox, 3, 'during');
    expect(during.ok).toEqual([]);
    expect(during.refused[0]).toMatch(/EROFS.*make the data dir writable again/);
    expect(journal.health().ok).toBe(false);
    disk.refuseWrites = undefined;
    const after = await push(inbox, 3, 'after');
    expect(after.refused).toEqual([]);
    await inbox.close();
    expect([...(await replayedIds(dir)).keys()].sort()).toEqual([...before.ok, ...after.ok].sort());
  });

  it('a read or an ack whose line cannot be written changes nothing: unread stays unread, pending stays pending', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const { ok } = await push(inbox, 4, 'm');
    disk.freeBytes = 0;
    await expect(inbox.take('claude')).rejects.toThrow(/ENOSPC/);
    expect(inbox.counts('claude')).toEqual({ pending: 4, delivered: 0, consumed: 0 });
    expect(inbox.unread('claude')).toBe(4);
    await expect(inbox.ack('claude', ok.slice(0, 2))).rejects.toThrow(/ENOSPC/);
    expect(inbox.counts('claude')).toEqual({ pending: 4, delivered: 0, consumed: 0 });

    disk.freeBytes = Infinity;
    expect((await inbox.take('claude')).messages.map((m) => m.id)).toEqual(ok);
    expect((await inbox.ack('claude', ok.slice(0, 2))).acked).toEqual(ok.slice(0, 2));
    expect(inbox.counts('claude')).toEqual({ pending: 0, delivered: 2, consumed: 2 });
    await inbox.close();
    const stored = await replayedIds(dir);
    expect(ok.map((id) => stored.get(id))).toEqual(['consumed', 'consumed', 'delivered', 'delivered']);
  });

  it('notices an agent folder deleted under it: the push that went into the deleted file is refused, the next one kept', async () => {
    const dir = tempDir();
    const { inbox } = open(dir);
    const early = await push(inbox, 1, 'early');
    expect(early.refused).toEqual([]);
    rmSync(join(dir, 'claude'), { recursive: true });
    const lost = await push(inbox, 1, 'into the deleted file');
    expect(lost.ok).toEqual([]);
    expect(lost.refused[0]).toMatch(/was deleted while the bridge wrote to it/);
    const kept = await push(inbox, 1, 'kept');
    expect(kept.refused).toEqual([]);
    await inbox.close();
    expect([...(await replayedIds(dir)).keys()]).toEqual(kept.ok);
  });

  it('refuses every push once the whole journal folder is gone, saying so', async () => {
    const dir = tempDir();
    const { inbox, journal } = open(dir);
    await push(inbox, 1, 'early');
    rmSync(dir, { recursive: true });
    const refused = await push(inbox, 2, 'after');
    expect(refused.ok).toEqual([]);
    expect((await push(inbox, 1, 'again')).refused[0]).toMatch(/journal folder .* is gone .*restart the bridge/);
    expect(journal.health().problem).toMatch(/is gone/);
  });
});
