import { describe, expect, it } from 'vitest';
import type { Message, StateEvent } from '../../bridge/protocol/index.js';
import { initialState, openAsks, reduce, remainingNow } from '../../renderer/src/store.js';
import { openAsk } from './fixtures.js';

const state = (fields: Partial<StateEvent> = {}): StateEvent => ({
  version: '0.1.0',
  asks: [],
  agents: [],
  pages: [],
  inbox: {},
  heldOrigins: [],
  away: false,
  ...fields,
});

const message = (id: string, at: string, status: Message['status'] = 'pending'): Message => ({
  id,
  kind: 'user_message',
  from: 'window',
  agentId: 'claude',
  text: id,
  at,
  status,
});

describe('the window state across a reconnect', () => {
  it('a window that connects while the bridge cannot write shows why in a notice, once', () => {
    const problem = 'could not write to /data/aiti-bridge/sessions/claude/x.jsonl: ENOSPC: no space left on device';
    let s = reduce(initialState, { type: 'state', state: state({ storageProblem: problem }), now: 0 });
    expect(s.notices).toEqual([
      expect.objectContaining({ agentId: 'bridge', title: 'The bridge cannot write to its data dir', body: problem }),
    ]);
    s = reduce(s, { type: 'state', state: state({ storageProblem: problem }), now: 1000 });
    expect(s.notices).toHaveLength(1);
    expect(reduce(initialState, { type: 'state', state: state(), now: 0 }).notices).toEqual([]);
  });

  it('a state event replaces the open asks: an ask that ended while the stream was down stays, marked ended', () => {
    const { receivedAt: _r, totalMs: _t, ...gone } = openAsk({ kind: 'user_confirm', prompt: 'gone' });
    const { receivedAt: _r2, totalMs: _t2, ...kept } = openAsk({ kind: 'user_confirm', prompt: 'kept' });
    let s = reduce(initialState, { type: 'state', state: state({ asks: [gone, kept] }), now: 0 });
    s = reduce(s, { type: 'connection', connection: 'reconnecting' });
    expect(s.asks).toHaveLength(2);
    s = reduce(s, { type: 'state', state: state({ asks: [kept] }), now: 1000 });
    expect(s.connection).toBe('live');
    expect(openAsks(s.asks).map((a) => a.prompt)).toEqual(['kept']);
    // the card that vanished is kept a moment, ended without a known outcome, instead of disappearing silently
    expect(s.asks.find((a) => a.prompt === 'gone')?.ended).toEqual({ here: false, at: 1000 });
    expect(s.generation).toBe(2);
  });

  it('the same ask sent again (state, then ask) is held once', () => {
    const { receivedAt: _r, totalMs: _t, ...ask } = openAsk({ kind: 'user_confirm', prompt: 'once' });
    let s = reduce(initialState, { type: 'state', state: state({ asks: [ask] }), now: 0 });
    s = reduce(s, { type: 'ask', ask, now: 5 });
    expect(s.asks).toHaveLength(1);
  });

  it('history fetched after a reconnect merges by id: nothing doubled, newer status wins, newest first', () => {
    let s = reduce(initialState, {
      type: 'messages',
      messages: [message('m1', '2026-11-30T10:00:00.000Z'), message('m2', '2026-11-30T10:01:00.000Z')],
    });
    s = reduce(s, {
      type: 'messages',
      messages: [message('m3', '2026-11-30T10:02:00.000Z'), message('m2', '2026-11-30T10:01:00.000Z', 'consumed')],
    });
    expect(s.messages.map((m) => `${m.id}:${m.status}`)).toEqual(['m3:pending', 'm2:consumed', 'm1:pending']);
  });

  it('an ask_update that ends an ask marks its card ended with the outcome; one that pauses it freezes the countdown', () => {
    const { receivedAt: _r, totalMs: _t, ...a } = openAsk({ kind: 'user_input', prompt: 'a', remainingMs: 60_000 });
    const { receivedAt: _r2, totalMs: _t2, ...b } = openAsk({ kind: 'user_input', prompt: 'b', remainingMs: 60_000 });
    let s = reduce(initialState, { type: 'state', state: state({ asks: [a, b] }), now: 0 });
    s = reduce(s, {
      type: 'ask_update',
      update: { askId: a.askId, deadline: a.deadline, remainingMs: 41_000, paused: true, status: 'open' },
      now: 19_000,
    });
    s = reduce(s, {
      type: 'ask_update',
      update: {
        askId: b.askId,
        deadline: b.deadline,
        remainingMs: 0,
        paused: false,
        status: 'timed_out',
        outcome: { status: 'timed_out', decidedBy: 'bridge' },
      },
      now: 19_000,
    });
    expect(openAsks(s.asks).map((x) => x.prompt)).toEqual(['a']);
    expect(s.asks.find((x) => x.prompt === 'b')?.ended).toEqual({
      outcome: { status: 'timed_out', decidedBy: 'bridge' },
      here: false,
      at: 19_000,
    });
    s = reduce(s, { type: 'ask_gone', askId: b.askId });
    expect(s.asks.map((x) => x.prompt)).toEqual(['a']);
    const [paused] = s.asks;
    expect(paused && remainingNow(paused, 99_000)).toBe(41_000);
    expect(paused?.totalMs).toBe(60_000);
  });
});
