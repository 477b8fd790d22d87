import { mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Inbox } from '../../bridge/inbox/inbox.js';
import { dirAgent, lineHeads, scanMessage, scanStatusChange } from '../../bridge/journal/scan.js';
import { FROMS, KINDS, STATUSES, timeOrder } from '../../bridge/inbox/message-table.js';
import { createLogger, type Logger } from '../../bridge/log.js';
import type { InboxStatusAnswer, Message, MessagesAnswer } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { openInbox, recordingLog } from '../helpers/inbox.js';

/**
 * README "Inbox, push and the journal": a start replays the journal by reading only the head of each line the bridge
 * wrote (id, kind, from, agent, time, status); a message's body is read from its line when someone reads the message.
 * These tests hold that shortcut to the same result as parsing every line with the schema.
 */

function open(dir: string, clock?: { now: number }, log: Logger = createLogger('test', 'silent')): Inbox {
  const now = clock ? () => new Date(clock.now) : undefined;
  return openInbox(dir, { log, ...(now ? { now } : {}), maxBytes: 4000 }).inbox;
}

/** Everything a reader of the inbox can see: every history page (all agents and each agent), status and counts. */
interface View {
  all: Message[];
  byAgent: Record<string, Message[]>;
  status: InboxStatusAnswer['agents'];
  newest: Record<string, string | null>;
}

async function view(inbox: Inbox): Promise<View> {
  const pages = async (agentId?: string) => {
    const messages: Message[] = [];
    let before: string | undefined;
    for (;;) {
      const page: MessagesAnswer = await inbox.history({
        limit: 7,
        ...(agentId ? { agentId } : {}),
        ...(before ? { before } : {}),
      });
      messages.push(...page.messages);
      if (!page.nextBefore) return messages;
      before = page.nextBefore;
    }
  };
  const agents = inbox.agentIds().sort();
  const byAgent: Record<string, Message[]> = {};
  for (const a of agents) byAgent[a] = await pages(a);
  return {
    all: await pages(),
    byAgent,
    status: inbox.status().agents.sort((a, b) => (a.agentId < b.agentId ? -1 : 1)),
    newest: Object.fromEntries(agents.map((a) => [a, inbox.newestPending(a)?.id ?? null])),
  };
}

/**
 * What a restart shows of a view taken before it: the same, statuses and all (a message handed out and not acked is
 * still handed out, and the agent's next read hands it out again).
 */
function afterRestart(before: View): View {
  return before;
}

/** Writes a journal with pushes to three agents, answers, asks, page events, non-ASCII text, reads, acks, a rename. */
async function mixedJournal(dir: string, shareInstants: boolean): Promise<{ inbox: Inbox; clock: { now: number } }> {
  const clock = { now: Date.parse('2026-11-30T10:00:00.000Z') };
  const inbox = open(dir, clock);
  const agents = ['claude', 'cursor', 'codex-1'];
  for (let i = 0; i < 60; i++) {
    // messages of one instant to several agents have no order a replay could restore (files are read agent by agent)
    if (!shareInstants || i % 3 === 0) clock.now += 1 + (i % 4);
    const agentId = agents[i % 3] ?? 'claude';
    const kind = i % 10 === 0 ? 'ask' : i % 7 === 0 ? 'page_error' : i % 5 === 0 ? 'user_answer' : 'user_message';
    await inbox.add(
      agentId,
      {
        kind,
        from: kind === 'page_error' ? 'page' : kind === 'ask' ? 'bridge' : 'window',
        text: i % 4 === 0 ? `Grüße, «${i}» — 日本語 "quoted" \\ back\nslash` : `#${i}`,
        ...(kind === 'ask' ? { payload: { agentId, askId: `a${i}`, question: 'Ship it?' } } : {}),
        ...(kind === 'page_error' ? { payload: { entries: [{ message: 'x is undefined', line: i }] } } : {}),
        ...(kind === 'user_answer' ? { ref: `ask-${i}` } : {}),
        ...(i === 8 ? { images: [{ id: 'img-0123456789abcdef', mimeType: 'image/png', bytes: 42 }] } : {}),
      },
      kind === 'ask' ? 'consumed' : 'pending',
    );
  }
  clock.now += 5;
  const taken = (await inbox.take('claude', { limit: 5 })).messages;
  await inbox.ack(
    'claude',
    taken.slice(0, 3).map((m) => m.id),
  );
  await inbox.take('cursor', { limit: 2 });
  const cursor = (await inbox.history({ agentId: 'cursor', limit: 100 })).messages;
  await inbox.ack(
    'cursor',
    cursor.slice(-4).map((m) => m.id),
  );
  clock.now += 5;
  await inbox.rename('codex-1', 'codex');
  clock.now += 5;
  await inbox.add('codex', { kind: 'user_message', from: 'window', text: 'after the rename' });
  return { inbox, clock };
}

/** Rewrites every journal line with its keys in another order: the same facts, no longer in the bridge's own form. */
function reorderKeys(dir: string): void {
  const reverse = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .reverse()
            .map(([k, v]) => [k, reverse(v)]),
        )
      : value;
  for (const agent of readdirSync(dir))
    for (const name of readdirSync(join(dir, agent))) {
      const path = join(dir, agent, name);
      const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
      writeFileSync(path, lines.map((l) => JSON.stringify(reverse(JSON.parse(l))) + '\n').join(''));
    }
}

function journalFiles(dir: string, agentId: string): string[] {
  return readdirSync(join(dir, agentId))
    .sort()
    .map((name) => join(dir, agentId, name));
}

describe('journal replay', () => {
  it('gives back exactly what the inbox held, for pushes, answers, asks, reads, acks and a rename over several agents', async () => {
    const dir = tempDir();
    const { inbox, clock } = await mixedJournal(dir, false);
    const before = afterRestart(await view(inbox));
    await inbox.close();
    expect(journalFiles(dir, 'claude').length).toBeGreaterThan(1);

    const again = open(dir, clock);
    expect(await view(again)).toEqual(before);
    // the texts read back from disk, non-ASCII and escapes included
    expect((await again.history({ agentId: 'claude', limit: 100 })).messages.map((m) => m.text)).toContain(
      'Grüße, «0» — 日本語 "quoted" \\ back\nslash',
    );
    await again.close();
  });

  it('reads a journal in another key order (the schema path) to the same result as the bridge’s own form', async () => {
    const dir = tempDir();
    const { inbox, clock } = await mixedJournal(dir, true);
    await inbox.close();
    const fast = open(dir, clock);
    const expected = await view(fast);
    fast.close();

    reorderKeys(dir);
    const slow = open(dir, clock);
    expect(await view(slow)).toEqual(expected);
    slow.close();
  });

  it('skips a corrupt line in the middle with a warning naming it, and replays every line after it', async () => {
    const dir = tempDir();
    const first = open(dir);
    for (const text of ['one', 'two', 'three'])
      await first.add('claude', { kind: 'user_message', from: 'window', text });
    await first.close();
    const [path = ''] = journalFiles(dir, 'claude');
    const lines = readFileSync(path, 'utf8').split('\n');
    lines[2] = lines[2]?.replace('"type":"message"', '"type":"mess\u0000age"') ?? '';
    writeFileSync(path, lines.join('\n'));

    const { log, warnings } = recordingLog();
    const second = open(dir, undefined, log);
    expect((await second.history({ agentId: 'claude' })).messages.map((m) => m.text)).toEqual(['three', 'one']);
    expect(warnings).toEqual([`journal: unreadable line 3 of ${path} skipped`]);
    await second.close();
  });

  it('keeps a message whose line is damaged inside its text: its head counts, reading it says the line is damaged', async () => {
    const dir = tempDir();
    const first = open(dir);
    const kept = await first.add('claude', { kind: 'user_message', from: 'window', text: 'kept' });
    const damaged = await first.add('claude', { kind: 'user_message', from: 'window', text: 'abcdef' });
    await first.close();
    const [path = ''] = journalFiles(dir, 'claude');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"text":"abcdef"', '"text":"abc\u0001ef"'));

    const { log, warnings } = recordingLog();
    const second = open(dir, undefined, log);
    expect(second.counts('claude').pending).toBe(2);
    const messages = (await second.history({ agentId: 'claude' })).messages;
    expect(messages.map((m) => m.id)).toEqual([damaged.id, kept.id]);
    expect(messages[1]?.text).toBe('kept');
    expect(messages[0]?.text).toMatch(
      /could not be read back from the journal: line at bytes \d+-\d+ of .* is damaged/,
    );
    expect(warnings).toEqual([expect.stringContaining(`journal: message ${damaged.id}: line at bytes`)]);
    // the agent can still acknowledge it
    expect(await second.ack('claude', [damaged.id])).toEqual({ acked: [damaged.id], unknown: [] });
    await second.close();
  });

  it('skips the last line cut off mid-write (a crash), keeps every earlier one, and writes on in a new file', async () => {
    const dir = tempDir();
    const first = open(dir);
    const kept = await first.add('claude', { kind: 'user_message', from: 'window', text: 'kept' });
    await first.add('claude', { kind: 'user_message', from: 'window', text: 'x'.repeat(200) });
    await first.close();
    const [path = ''] = journalFiles(dir, 'claude');
    const size = readFileSync(path).length;
    truncateSync(path, size - 120); // the crash came in the middle of the second message's text

    const { log, warnings } = recordingLog();
    const second = open(dir, undefined, log);
    expect((await second.history({ agentId: 'claude' })).messages.map((m) => m.id)).toEqual([kept.id]);
    expect(warnings).toEqual([`journal: torn last line 3 of ${path} skipped (the bridge stopped while writing it)`]);
    await second.add('claude', { kind: 'user_message', from: 'window', text: 'after' });
    await second.close();
    expect(journalFiles(dir, 'claude')).toHaveLength(2);
    const third = open(dir);
    expect((await third.history({ agentId: 'claude' })).messages.map((m) => m.text)).toEqual(['after', 'kept']);
    await third.close();
  });

  it('reads every message and status_change line the inbox writes by its head alone, without the schema', async () => {
    const dir = tempDir();
    const clock = { now: Date.parse('2026-11-30T10:00:00.000Z') };
    const inbox = open(dir, clock);
    const message = await inbox.add('claude', {
      kind: 'user_answer',
      from: 'window',
      text: 'Grüße "quoted"',
      payload: { choice: 1 },
      ref: 'ask-1',
      images: [{ id: 'img-0123456789abcdef', mimeType: 'image/png', bytes: 42 }],
    });
    clock.now += 1000;
    await inbox.take('claude');
    clock.now += 1000;
    await inbox.ack('claude', [message.id]);
    await inbox.close();

    const [path = ''] = journalFiles(dir, 'claude');
    const buf = readFileSync(path);
    const { head, change } = lineHeads();
    const read: unknown[] = [];
    for (let start = 0; start < buf.length;) {
      const end = buf.indexOf(0x0a, start);
      const type = (JSON.parse(buf.toString('utf8', start, end)) as { type: string }).type;
      if (scanMessage(buf, start, end, dirAgent('claude'), head))
        read.push({
          type,
          id: buf.toString('latin1', head.idStart, head.idEnd),
          kind: KINDS[head.kind],
          from: FROMS[head.from],
          agentId: head.agentId,
          at: new Date(head.time).toISOString(),
          status: STATUSES[head.status],
          body: head.hasBody && head.start === start && head.end === end,
        });
      else if (scanStatusChange(buf, start, end, change))
        read.push({
          type,
          id: buf.toString('latin1', change.idStart, change.idEnd),
          at: new Date(change.time).toISOString(),
          status: STATUSES[change.status],
        });
      else read.push({ type, fastPath: false });
      start = end + 1;
    }
    const { id, kind, from, agentId, at } = message;
    expect(read).toEqual([
      { type: 'session', fastPath: false },
      { type: 'message', id, kind, from, agentId, at, status: 'pending', body: true },
      { type: 'status_change', id, at: '2026-11-30T10:00:01.000Z', status: 'delivered' },
      { type: 'status_change', id, at: '2026-11-30T10:00:02.000Z', status: 'consumed' },
    ]);
  });

  it('finds replayed messages by id for acks and paging, and reports ids it does not hold (non-ASCII ones too)', async () => {
    const dir = tempDir();
    const first = open(dir);
    // past the id index's first growth (it starts with room for 2048)
    const added = await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        first.add(i % 2 ? 'claude' : 'cursor', { kind: 'user_message', from: 'window', text: String(i) }),
      ),
    );
    const ids = added.map((m) => m.id);
    await first.close();

    const second = open(dir);
    const claude = ids.filter((_, i) => i % 2);
    expect(await second.ack('claude', [claude[5] ?? '', 'mé', ids[0] ?? ''])).toEqual({
      acked: [claude[5]],
      unknown: ['mé', ids[0]],
    });
    expect(second.counts('claude')).toEqual({ pending: 1499, delivered: 0, consumed: 1 });
    const page = await second.history({ agentId: 'claude', before: claude[10], limit: 2 });
    expect(page.messages.map((m) => m.id)).toEqual([claude[9], claude[8]]);
    await second.close();
    expect(open(dir).counts('claude').consumed).toBe(1);
  });
});

describe('the history order replay restores', () => {
  /** what a stable sort by time gives: the order replay must restore, however it gets there */
  const reference = (time: Float64Array) =>
    Array.from({ length: time.length }, (_, r) => r).sort((a, b) => (time[a] ?? 0) - (time[b] ?? 0) || a - b);

  /** `runs` runs of times in order (as an agent's files are), many of them shared across runs */
  const runsOf = (runs: number, length: number) =>
    Float64Array.from(
      { length: runs * length },
      (_, i) => Math.floor((i % length) / 3) * 2 + (Math.floor(i / length) % 2),
    );

  it('merges a few runs in time order, earlier rows first among equal times', () => {
    const time = runsOf(5, 200);
    expect(Array.from(timeOrder(time, time.length))).toEqual(reference(time));
  });

  it('gives the same order past the runs it merges (it sorts), and for times out of order inside a run', () => {
    const many = runsOf(40, 50);
    expect(Array.from(timeOrder(many, many.length))).toEqual(reference(many));
    const shuffled = Float64Array.from({ length: 500 }, (_, i) => (i * 7919) % 101);
    expect(Array.from(timeOrder(shuffled, shuffled.length))).toEqual(reference(shuffled));
  });
});

describe('replay of journals written by hand or by an older bridge', () => {
  const at = (s: number) => `2026-11-30T10:00:0${s}.000Z`;
  /** a journal file of `agent` holding these lines after its session line */
  const write = (dir: string, agent: string, lines: unknown[]) => {
    mkdirSync(join(dir, agent), { recursive: true });
    const session = { type: 'session', agentId: agent, startedAt: at(0), bridgeVersion: 'old' };
    const text = [session, ...lines].map((line) => JSON.stringify(line) + '\n').join('');
    writeFileSync(join(dir, agent, `${at(0).replace(/:/g, '-')}_x.jsonl`), text);
  };
  /** a message line in the bridge's own key order (read by its head), or in another (read whole) */
  const own = (id: string, agentId: string, text?: string) => ({
    type: 'message',
    message: {
      id,
      kind: 'user_message',
      from: 'window',
      agentId,
      ...(text ? { text } : {}),
      at: at(1),
      status: 'pending',
    },
  });
  const other = (id: string, agentId: string, text: string) => ({
    type: 'message',
    message: { status: 'pending', at: at(1), text, agentId, from: 'window', kind: 'user_message', id },
  });

  for (const [form, line] of [
    ['the bridge’s own form', own],
    ['another key order', other],
  ] as const)
    it(`keeps the first of two lines with the same id, even the very first message (${form})`, async () => {
      const dir = tempDir();
      write(dir, 'amy', [line('m-twice', 'amy', 'first copy'), line('m-twice', 'amy', 'second copy')]);
      const inbox = open(dir);
      expect((await inbox.history({ agentId: 'amy' })).messages.map((m) => m.text)).toEqual(['first copy']);
      expect(inbox.counts('amy')).toEqual({ pending: 1, delivered: 0, consumed: 0 });
    });

  it('a message whose line holds nothing but its head reads whole, even once its file is gone', async () => {
    const dir = tempDir();
    write(dir, 'amy', [own('m-bare', 'amy')]);
    const inbox = open(dir);
    rmSync(join(dir, 'amy'), { recursive: true });
    expect((await inbox.history({ agentId: 'amy' })).messages).toEqual([
      { id: 'm-bare', kind: 'user_message', from: 'window', agentId: 'amy', at: at(1), status: 'pending' },
    ]);
  });
});

describe('renames across a restart', () => {
  it('are replayed in the order they were made, not the order their folders are read in', async () => {
    const dir = tempDir();
    const clock = { now: Date.parse('2026-11-30T10:00:00.000Z') };
    const tick = () => (clock.now += 1000);
    const first = open(dir, clock);
    const one = await first.add('zed', { kind: 'user_message', from: 'window', text: 'one' });
    tick();
    await first.rename('zed', 'amy'); // journaled in zed's folder, read last
    tick();
    const two = await first.add('amy', { kind: 'user_message', from: 'window', text: 'two' });
    tick();
    await first.rename('amy', 'bob'); // journaled in amy's folder, read first
    tick();
    const before = (await first.history({ agentId: 'bob' })).messages.map((m) => m.id);
    expect(before).toEqual([two.id, one.id]);
    await first.close();

    const again = open(dir, clock);
    expect((await again.history({ agentId: 'bob' })).messages.map((m) => m.id)).toEqual(before);
    expect(again.agentIds()).toEqual(['bob']);
  });
});
