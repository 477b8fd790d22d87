import { appendFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '../../bridge/log.js';
import { JournalLine } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { openInbox, recordingLog } from '../helpers/inbox.js';

function open(dir: string, options: { now?: () => Date; maxBytes?: number; log?: Logger } = {}) {
  return openInbox(dir, {
    log: options.log ?? createLogger('test', 'silent'),
    ...(options.now ? { now: options.now } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
  }).inbox;
}

function files(dir: string, agentId: string): string[] {
  return readdirSync(join(dir, agentId)).sort();
}

function lines(path: string): JournalLine[] {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JournalLine.parse(JSON.parse(l)));
}

describe('the journal', () => {
  it('writes a session line first, then message and status_change lines, one JSON event a line', async () => {
    const dir = tempDir();
    const inbox = open(dir);
    const message = await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'hi' });
    await inbox.take('claude');
    await inbox.ack('claude', [message.id]);
    await inbox.close();

    const [name] = files(dir, 'claude');
    expect(name).toMatch(/^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
    const written = lines(join(dir, 'claude', name ?? ''));
    expect(written.map((l) => l.type)).toEqual(['session', 'message', 'status_change', 'status_change']);
    expect(written[1]).toMatchObject({ message: { id: message.id, text: 'hi', status: 'pending' } });
    expect(written.slice(2).map((l) => (l.type === 'status_change' ? l.status : ''))).toEqual([
      'delivered',
      'consumed',
    ]);
  });

  it('replays every inbox on start as it was: consumed stays consumed, handed out stays handed out', async () => {
    const dir = tempDir();
    const first = open(dir);
    const a = await first.add('claude', { kind: 'user_message', from: 'window', text: 'a' });
    const b = await first.add('claude', { kind: 'user_message', from: 'window', text: 'b' });
    const c = await first.add('cursor', { kind: 'user_answer', from: 'window', text: 'yes', ref: 'ask-1' });
    await first.take('claude');
    await first.ack('claude', [a.id]);
    await first.close();

    const second = open(dir);
    expect(second.counts('claude')).toEqual({ pending: 0, delivered: 1, consumed: 1 });
    expect(second.counts('cursor')).toEqual({ pending: 1, delivered: 0, consumed: 0 });
    const history = (await second.history({ agentId: 'claude' })).messages;
    expect(history.map((m) => [m.id, m.status])).toEqual([
      [b.id, 'delivered'],
      [a.id, 'consumed'],
    ]);
    // what was handed out and never acked comes back to the agent's next read, with its id
    expect((await second.take('claude')).messages.map((m) => [m.id, m.status])).toEqual([[b.id, 'delivered']]);
    expect((await second.history({ agentId: 'cursor' })).messages[0]).toMatchObject({ id: c.id, ref: 'ask-1' });
    await second.close();
  });

  it('opens a new file past 2 MB, and replay reads across the files', async () => {
    const dir = tempDir();
    const inbox = open(dir);
    const text = 'x'.repeat(100_000);
    for (let i = 0; i < 25; i++) await inbox.add('claude', { kind: 'user_message', from: 'window', text });
    await inbox.close();

    const names = files(dir, 'claude');
    expect(names.length).toBe(2);
    for (const name of names) expect(statSync(join(dir, 'claude', name)).size).toBeLessThanOrEqual(2 * 1024 * 1024);
    for (const name of names) expect(lines(join(dir, 'claude', name))[0]?.type).toBe('session');
    expect(open(dir).counts('claude').pending).toBe(25);
  });

  it('opens a new file at the UTC day boundary (injected clock), even for a status change of yesterday’s message', async () => {
    const dir = tempDir();
    let now = new Date('2026-11-30T23:59:59.000Z');
    const inbox = open(dir, { now: () => now });
    const message = await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'late' });
    now = new Date('2026-12-01T00:00:01.000Z');
    await inbox.take('claude');
    await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'early' });
    await inbox.close();

    const names = files(dir, 'claude');
    expect(names.map((n) => n.slice(0, 10))).toEqual(['2026-11-30', '2026-12-01']);
    const second = lines(join(dir, 'claude', names[1] ?? ''));
    expect(second.map((l) => l.type)).toEqual(['session', 'status_change', 'message']);
    const again = open(dir, { now: () => now });
    expect((await again.history({ agentId: 'claude' })).messages.map((m) => m.text)).toEqual(['early', 'late']);
    expect((await again.history({ agentId: 'claude' })).messages[1]?.id).toBe(message.id);
  });

  it('keeps files in writing order when the clock stands still', async () => {
    const dir = tempDir();
    const frozen = new Date('2026-11-30T12:00:00.000Z');
    const inbox = open(dir, { now: () => frozen, maxBytes: 1000 });
    for (let i = 0; i < 20; i++) await inbox.add('claude', { kind: 'user_message', from: 'window', text: `m${i}` });
    await inbox.take('claude', { limit: 1000 });
    await inbox.close();
    expect(files(dir, 'claude').length).toBeGreaterThan(3);

    const again = open(dir, { now: () => frozen });
    const texts = (await again.history({ agentId: 'claude', limit: 100 })).messages.map((m) => m.text);
    expect(texts).toEqual(Array.from({ length: 20 }, (_, i) => `m${19 - i}`));
  });

  it('skips a torn last line with a warning naming the file and the line, and keeps the rest', async () => {
    const dir = tempDir();
    const first = open(dir);
    await first.add('claude', { kind: 'user_message', from: 'window', text: 'kept' });
    await first.close();
    const path = join(dir, 'claude', files(dir, 'claude')[0] ?? '');
    appendFileSync(path, '{"type":"message","message":{"id":"m1","ki');

    const { log, warnings } = recordingLog();
    const second = open(dir, { log });
    expect((await second.history({ agentId: 'claude' })).messages.map((m) => m.text)).toEqual(['kept']);
    expect(warnings).toEqual([expect.stringContaining(`torn last line 3 of ${path}`)]);
    await second.add('claude', { kind: 'user_message', from: 'window', text: 'after' });
    await second.close();
    expect(open(dir).counts('claude').pending).toBe(2);
  });

  it('never stops on a corrupt file: unreadable lines are skipped, named, and the other files replay', async () => {
    const dir = tempDir();
    const first = open(dir);
    await first.add('claude', { kind: 'user_message', from: 'window', text: 'good' });
    await first.close();
    writeFileSync(join(dir, 'claude', '2000-01-01T00-00-00.000Z_bad.jsonl'), '\u0000\u0001garbage\n{"type":"nope"}\n');

    const { log, warnings } = recordingLog();
    const second = open(dir, { log });
    expect((await second.history({ agentId: 'claude' })).messages.map((m) => m.text)).toEqual(['good']);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain('unreadable line 1 of');
    expect(warnings[1]).toContain('unreadable line 2 of');
  });
});

describe('the inbox', () => {
  it('goes pending → delivered → consumed; a read hands out again what was not acked; unknown acks are reported', async () => {
    const inbox = open(tempDir());
    const a = await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'a' });
    expect(inbox.unread('claude')).toBe(1);
    expect((await inbox.take('claude')).messages.map((m) => [m.id, m.status])).toEqual([[a.id, 'delivered']]);
    expect((await inbox.take('claude')).messages.map((m) => [m.id, m.status])).toEqual([[a.id, 'delivered']]);
    expect(inbox.counts('claude')).toEqual({ pending: 0, delivered: 1, consumed: 0 });
    expect(await inbox.ack('claude', [a.id, 'm-nope'])).toEqual({ acked: [a.id], unknown: ['m-nope'] });
    expect(inbox.counts('claude')).toEqual({ pending: 0, delivered: 0, consumed: 1 });
    expect(await inbox.take('claude')).toEqual({ messages: [], left: 0 });
    await inbox.close();
  });

  it('pages history before an ISO time', async () => {
    let now = new Date('2026-11-30T10:00:00.000Z');
    const inbox = open(tempDir(), { now: () => now });
    for (const hour of [10, 11, 12]) {
      now = new Date(`2026-11-30T${hour}:00:00.000Z`);
      await inbox.add('claude', { kind: 'user_message', from: 'window', text: `at ${hour}` });
    }
    const older = await inbox.history({ agentId: 'claude', before: '2026-11-30T12:00:00.000Z' });
    expect(older.messages.map((m) => m.text)).toEqual(['at 11', 'at 10']);
    expect(older.nextBefore).toBeUndefined();
    await inbox.close();
  });

  it('hands out at most one page a read, oldest first, and reads on after a message', async () => {
    const inbox = open(tempDir());
    for (let i = 0; i < 60; i++) await inbox.add('claude', { kind: 'user_message', from: 'window', text: String(i) });
    const first = await inbox.take('claude');
    expect(first.messages.map((m) => m.text)).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(first.left).toBe(10);
    const after = first.messages[49]?.id;
    expect((await inbox.take('claude', { after })).messages.map((m) => m.text)).toEqual([
      '50',
      '51',
      '52',
      '53',
      '54',
      '55',
      '56',
      '57',
      '58',
      '59',
    ]);
    await inbox.close();
  });

  it('does not let one agent ack another agent’s message', async () => {
    const inbox = open(tempDir());
    const a = await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'a' });
    expect(await inbox.ack('cursor', [a.id])).toEqual({ acked: [], unknown: [a.id] });
    expect(inbox.counts('claude').pending).toBe(1);
    await inbox.close();
  });

  it('pages through 10,000 messages newest first with the before cursor, each exactly once', async () => {
    const dir = tempDir();
    const inbox = open(dir);
    const ids = await Promise.all(
      Array.from({ length: 10_000 }, (_, i) =>
        inbox.add(i % 2 ? 'claude' : 'cursor', { kind: 'user_message', from: 'window', text: String(i) }),
      ),
    );
    await inbox.close();
    const again = open(dir);
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await again.history({ limit: 500, ...(before ? { before } : {}) });
      seen.push(...page.messages.map((m) => m.id));
      if (!page.nextBefore) break;
      before = page.nextBefore;
    }
    expect(seen).toHaveLength(10_000);
    expect(new Set(seen)).toEqual(new Set(ids.map((m) => m.id)));
    const at = new Map(ids.map((m) => [m.id, Date.parse(m.at)]));
    const times = seen.map((id) => at.get(id));
    expect(times).toEqual([...times].sort((a, b) => (b ?? 0) - (a ?? 0)));
    const claudeIds: string[] = [];
    before = undefined;
    for (;;) {
      const page = await again.history({ agentId: 'claude', limit: 700, ...(before ? { before } : {}) });
      claudeIds.push(...page.messages.map((m) => m.id));
      if (!page.nextBefore) break;
      before = page.nextBefore;
    }
    expect(claudeIds).toEqual(
      ids
        .filter((m) => m.agentId === 'claude')
        .map((m) => m.id)
        .reverse(),
    );
    const claude = await again.history({ agentId: 'claude', limit: 3 });
    expect(claude.messages.map((m) => m.text)).toEqual(['9999', '9997', '9995']);
    expect((await again.history({ agentId: 'claude', before: claude.nextBefore, limit: 1 })).messages[0]?.text).toBe(
      '9993',
    );
  });
});
