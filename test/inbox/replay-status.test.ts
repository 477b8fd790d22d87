import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Inbox } from '../../bridge/inbox/inbox.js';
import type { JournalLine } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { openInbox, recordingLog } from '../helpers/inbox.js';

/** An inbox on `dir` whose clock moves 1 ms at every reading, so every line has a time of its own. */
function open(dir: string, clock = { now: Date.parse('2026-11-30T10:00:00.000Z') }) {
  const now = () => new Date(clock.now++);
  const { log, warnings } = recordingLog();
  const { inbox } = openInbox(dir, { log, now });
  return { inbox, warnings };
}

async function statusOf(inbox: Inbox, agentId: string): Promise<Record<string, string>> {
  return Object.fromEntries((await inbox.history({ agentId, limit: 1000 })).messages.map((m) => [m.id, m.status]));
}

describe('replay when a status line is read before its message line', () => {
  it('an ack made after a rename survives a restart, whichever agent folder is read first', async () => {
    const dir = tempDir();
    const { inbox } = open(dir);
    // m1 is written in amy's folder and acked as zed (its status line in zed's folder); m2 the other way round,
    // so in either folder order one of them has its status line read first
    const m1 = await inbox.add('amy', { kind: 'user_message', from: 'window', text: 'one' });
    await inbox.rename('amy', 'zed');
    await inbox.ack('zed', [m1.id]);
    const m2 = await inbox.add('zed', { kind: 'user_message', from: 'window', text: 'two' });
    await inbox.rename('zed', 'amy');
    await inbox.ack('amy', [m2.id]);
    const m3 = await inbox.add('amy', { kind: 'user_message', from: 'window', text: 'three' });
    expect(await statusOf(inbox, 'amy')).toEqual({ [m1.id]: 'consumed', [m2.id]: 'consumed', [m3.id]: 'pending' });
    await inbox.close();

    const again = open(dir).inbox;
    expect(await statusOf(again, 'amy')).toEqual({ [m1.id]: 'consumed', [m2.id]: 'consumed', [m3.id]: 'pending' });
    expect(again.counts('amy')).toEqual({ pending: 1, delivered: 0, consumed: 2 });
    expect(again.unread('amy')).toBe(1);
  });

  it('lines in another form than this bridge writes (read whole) keep the highest status, whichever comes first', async () => {
    const dir = tempDir();
    const at = (s: number) => `2026-11-30T10:00:0${s}.000Z`;
    // an older writer's key order: neither line is in the form the fast replay path reads
    const message = (id: string, agentId: string, s: number): string =>
      JSON.stringify({
        type: 'message',
        message: { status: 'pending', at: at(s), agentId, from: 'window', kind: 'user_message', text: id, id },
      });
    const change = (id: string, status: string, s: number): string =>
      JSON.stringify({ type: 'status_change', at: at(s), status, id });
    // the bridge's own forms, which the fast path reads by their head
    const own = (line: JournalLine): string => JSON.stringify(line);
    const write = (agent: string, lines: string[]) => {
      mkdirSync(join(dir, agent), { recursive: true });
      const session = own({ type: 'session', agentId: agent, startedAt: at(0), bridgeVersion: 'old' });
      writeFileSync(join(dir, agent, `${at(0).replace(/:/g, '-')}_x.jsonl`), [session, ...lines, ''].join('\n'));
    };
    const fast = (id: string, agentId: string, s: number) =>
      own({
        type: 'message',
        message: { id, kind: 'user_message', from: 'window', agentId, text: id, at: at(s), status: 'pending' },
      });
    // each message's acks sit in the other folder, consumed and then a late delivered (a read that lost the race)
    write('amy', [
      message('old-a', 'amy', 1),
      fast('own-a', 'amy', 1),
      change('old-z', 'consumed', 3),
      change('old-z', 'delivered', 4),
      own({ type: 'status_change', id: 'own-z', status: 'consumed', at: at(3) }),
      own({ type: 'status_change', id: 'own-z', status: 'delivered', at: at(4) }),
    ]);
    write('zed', [
      message('old-z', 'zed', 1),
      fast('own-z', 'zed', 1),
      change('old-a', 'consumed', 3),
      change('old-a', 'delivered', 4),
      own({ type: 'status_change', id: 'own-a', status: 'consumed', at: at(3) }),
      own({ type: 'status_change', id: 'own-a', status: 'delivered', at: at(4) }),
    ]);
    const { inbox, warnings } = open(dir);
    expect(warnings).toEqual([]);
    expect(await statusOf(inbox, 'amy')).toEqual({ 'old-a': 'consumed', 'own-a': 'consumed' });
    expect(await statusOf(inbox, 'zed')).toEqual({ 'old-z': 'consumed', 'own-z': 'consumed' });
    expect(inbox.counts('amy')).toEqual({ pending: 0, delivered: 0, consumed: 2 });
    expect(inbox.counts('zed')).toEqual({ pending: 0, delivered: 0, consumed: 2 });
  });
});
