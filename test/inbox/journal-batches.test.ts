import { readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { FaultyDisk } from '../helpers/faulty-disk.js';
import { openInbox as open, pushAtOnce as push, recordingLog } from '../helpers/inbox.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The journal's group commit on a disk that is slow or fails (test/helpers/faulty-disk.ts): what a push is told,
 * and what the files hold afterwards. disk-faults.test.ts has the plain faults; these are about batches that meet
 * (one fails while another is being fsynced, a new file begins under one, the bridge stops under one).
 */

/** What a restart finds: the ids it replays, and the warnings it prints. */
async function restart(dir: string): Promise<{ ids: string[]; warnings: string[] }> {
  const { log, warnings } = recordingLog();
  const { inbox } = open(dir, { log });
  const ids = (await inbox.history({ agentId: 'claude', limit: 100_000 })).messages.map((m) => m.id);
  await inbox.close();
  return { ids, warnings };
}

function journalFiles(dir: string): string[] {
  return readdirSync(join(dir, 'claude'))
    .sort()
    .map((name) => join(dir, 'claude', name));
}

/** The files under `dir` this process holds open (what `ls -l /proc/<pid>/fd` shows of the bridge). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed meanwhile (the fd of the listing itself)
    }
  });
}

/** Lets the bridge run its next turns of the event loop (a flush starts one turn after the push). */
async function turns(count = 3): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('batches that meet on a slow disk', () => {
  it('a batch that fails while the one before it is being fsynced does not cut that one off', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const first = await push(inbox, 1, 'first');
    const release = disk.holdSyncs();
    const earlier = push(inbox, 10, 'earlier');
    await waitFor(() => disk.syncing > 0, 5000, 'the earlier batch in its fsync');
    disk.freeBytes = 100; // the next write is short, then ENOSPC
    const later = push(inbox, 10, 'later');
    await turns();
    release();
    const kept = await earlier;
    expect(kept.refused).toEqual([]);
    expect((await later).refused[0]).toMatch(/ENOSPC/);
    disk.freeBytes = Infinity;
    await inbox.close();
    disk.powerCut();
    const stored = await restart(dir);
    expect(stored.ids.sort()).toEqual([...first.ok, ...kept.ok].sort());
    expect(stored.warnings).toEqual([]);
  });

  it('a new file begun while the last batch of the old one is being fsynced refuses none of that batch', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    // the session line and six pushes of ~250 bytes fit, a seventh does not
    const { inbox } = open(dir, { disk, maxBytes: 1700 });
    const first = await push(inbox, 1, 'first');
    const release = disk.holdSyncs();
    const earlier = push(inbox, 5, 'earlier');
    await waitFor(() => disk.syncing > 0, 5000, 'the earlier batch in its fsync');
    const later = push(inbox, 1, 'later'); // the old file is full: a new one
    await turns();
    release();
    const results = [await earlier, await later];
    expect(results.flatMap((r) => r.refused)).toEqual([]);
    const files = journalFiles(dir);
    expect(files.map((path) => readFileSync(path, 'utf8').trim().split('\n').length)).toEqual([7, 2]);
    await inbox.close();
    disk.powerCut();
    expect((await restart(dir)).ids.sort()).toEqual([...first.ok, ...results.flatMap((r) => r.ok)].sort());
  });

  it('a push being fsynced when the bridge stops is acknowledged, and is there after the restart', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const release = disk.holdSyncs();
    const inFlight = push(inbox, 3, 'in flight');
    await waitFor(() => disk.syncing > 0, 5000, 'the batch in its fsync');
    const closing = inbox.close(); // the bridge stops: close() waits for what is queued to be written and fsynced
    release();
    await closing;
    const answered = await inFlight;
    expect(answered.refused).toEqual([]);
    expect((await restart(dir)).ids.sort()).toEqual(answered.ok.sort());
  });

  it('pushes queued behind a batch whose fsync fails are refused, saying to send again, and none comes back', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const first = await push(inbox, 1, 'first');
    const release = disk.holdSyncs();
    disk.failSync = 1;
    const failing = push(inbox, 3, 'failing');
    await waitFor(() => disk.syncing > 0, 5000, 'the failing batch in its fsync');
    const queued = push(inbox, 3, 'queued');
    await turns();
    release();
    expect((await failing).refused).toEqual(Array(3).fill(expect.stringMatching(/EIO/)));
    expect((await queued).refused).toEqual(
      Array(3).fill(expect.stringMatching(/failed under an earlier write; send again \(a new file is opened\)/)),
    );
    const next = await push(inbox, 2, 'next');
    expect(next.refused).toEqual([]);
    await inbox.close();
    // a refused push must not come back: its sender was told to send it again
    const stored = await restart(dir);
    expect(stored.ids.sort()).toEqual([...first.ok, ...next.ok].sort());
    expect(stored.warnings).toEqual([]);
  });
});

describe('what the files hold after a failed batch', () => {
  it('a batch whose fsync failed is not in the journal after a restart', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const kept = await push(inbox, 2, 'kept');
    disk.failSync = 1;
    expect((await push(inbox, 4, 'refused')).ok).toEqual([]);
    await inbox.close();
    expect((await restart(dir)).ids.sort()).toEqual(kept.ok.sort());
  });

  it('the first batch of a file that fails leaves no file behind; the next push starts one with its session line', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    disk.freeBytes = 50;
    expect((await push(inbox, 1, 'refused')).refused[0]).toMatch(/ENOSPC/);
    expect(readdirSync(join(dir, 'claude'))).toEqual([]);
    disk.freeBytes = Infinity;
    const kept = await push(inbox, 1, 'kept');
    await inbox.close();
    const files = journalFiles(dir);
    expect(files).toHaveLength(1);
    const lines = readFileSync(files[0] ?? '', 'utf8')
      .trim()
      .split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['session', 'message']);
    expect((await restart(dir)).ids).toEqual(kept.ok);
  });

  it('when the cut of a failed batch fails too, later pushes go to a new file and survive the restart', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const { inbox } = open(dir, { disk });
    const before = await push(inbox, 2, 'before');
    disk.freeBytes = 100; // a fragment of the batch reaches the file
    disk.failTruncate = 1; // and cannot be cut off
    expect((await push(inbox, 5, 'refused')).ok).toEqual([]);
    disk.freeBytes = Infinity;
    const after = await push(inbox, 3, 'after');
    expect(after.refused).toEqual([]);
    await inbox.close();
    const stored = await restart(dir);
    expect(stored.ids.sort()).toEqual([...before.ok, ...after.ok].sort());
    // the fragment stays in the old file, written off in void.jsonl: replay skips it without a word
    expect(stored.warnings).toEqual([]);
    expect(readFileSync(join(dir, 'void.jsonl'), 'utf8')).toMatch(
      /^\{"file":"claude\/[^"]+\.jsonl","from":\d+,"to":\d+\}\n$/,
    );
  });

  it('a refused batch takes no room: the agent’s file goes on, and fills to its limit as if it never came', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const maxBytes = 3000;
    const { inbox } = open(dir, { disk, maxBytes });
    await push(inbox, 2, 'before');
    disk.freeBytes = 100;
    expect((await push(inbox, 5, 'refused')).ok).toEqual([]);
    disk.freeBytes = Infinity;
    await push(inbox, 1, 'after');
    expect(journalFiles(dir)).toHaveLength(1);
    while (journalFiles(dir).length === 1) expect((await push(inbox, 1, 'more')).refused).toEqual([]);
    await inbox.close();
    const [full, next] = journalFiles(dir).map((path) => statSync(path).size);
    // the first file was given up only when the next line would not fit
    const line =
      readFileSync(journalFiles(dir)[1] ?? '', 'utf8')
        .trim()
        .split('\n')[1] ?? '';
    expect(full).toBeGreaterThan(maxBytes - Buffer.byteLength(line) - 1);
    expect(next).toBeGreaterThan(0);
  });

  it('a file may fill to exactly its limit', async () => {
    const at = new Date('2026-11-30T10:00:00.000Z');
    const write = async (dir: string, maxBytes?: number) => {
      const { inbox } = open(dir, { now: () => at, ...(maxBytes ? { maxBytes } : {}) });
      for (const id of ['m-one', 'm-two'])
        await inbox.add('claude', { id, kind: 'user_message', from: 'window', text: 'fits exactly' });
      await inbox.close();
      return journalFiles(dir).map((path) => statSync(path).size);
    };
    const [size = 0] = await write(tempDir());
    // the same two lines, with the limit at exactly their size: still one file
    expect(await write(tempDir(), size)).toEqual([size]);
  });
});

describe('the journal keeps no file open it no longer writes', () => {
  it('one file per agent, however often it moved to a new file or a batch failed; none once stopped', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    let now = new Date('2026-11-30T23:00:00.000Z');
    const { inbox, journal } = open(dir, { disk, maxBytes: 1500, now: () => now });
    // bursts past the limit: a file is given up with lines still queued for it
    for (let round = 0; round < 3; round++) expect((await push(inbox, 12, `burst ${round}`)).refused).toEqual([]);
    // one push at a time: a file is given up after its last batch
    for (let i = 0; i < 8; i++) await push(inbox, 1, `single ${i}`);
    // a disk that fills (the file goes on) just before midnight: the next push begins a new file
    now = new Date('2026-12-01T23:00:00.000Z');
    await push(inbox, 1, 'a new day');
    disk.freeBytes = 150;
    expect((await push(inbox, 1, 'full')).ok).toEqual([]);
    disk.freeBytes = Infinity;
    now = new Date('2026-12-02T00:00:01.000Z');
    for (let i = 0; i < 8; i++) await push(inbox, 1, `after full ${i}`);
    // an fsync that fails (the file is given up)
    disk.failSync = 1;
    expect((await push(inbox, 2, 'eio')).ok).toEqual([]);
    await push(inbox, 3, 'after eio');
    expect(journalFiles(dir).length).toBeGreaterThan(6);
    expect(openFilesUnder(dir)).toEqual([journal.currentFile('claude')]);
    await inbox.close();
    expect(openFilesUnder(dir)).toEqual([]);
    expect((await restart(dir)).warnings).toEqual([]);
  });
});

describe('pushes the journal cannot take', () => {
  it('a push after the bridge began stopping is refused, saying so', async () => {
    const { inbox } = open(tempDir());
    await inbox.close();
    await expect(inbox.add('claude', { kind: 'user_message', from: 'window', text: 'late' })).rejects.toThrow(
      'the journal is closed (the bridge is stopping)',
    );
  });

  it('a push whose agent folder cannot be made names the agent and why', async () => {
    const dir = tempDir();
    const { inbox } = open(dir);
    writeFileSync(join(dir, 'claude'), 'a file where the folder goes');
    const refused = await push(inbox, 1, 'refused');
    expect(refused.refused[0]).toMatch(/cannot open a journal file for claude: ENOTDIR/);
  });
});
