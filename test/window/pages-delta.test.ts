import { describe, expect, it } from 'vitest';
import type { SessionRow, StateEvent } from '../../bridge/protocol/index.js';
import { initialState, reduce } from '../../renderer/src/store.js';

const row = (pageId: string, frameId = 'main', fields: Partial<SessionRow> = {}): SessionRow => ({
  instanceId: `i-${pageId}`,
  frameId,
  pageId,
  url: `http://localhost:3000/${pageId}`,
  origin: 'http://localhost:3000',
  frameworks: [],
  active: true,
  operable: true,
  legacy: false,
  lastSeen: '2026-12-01T00:00:00.000Z',
  ...fields,
});

const state = (pages: SessionRow[]): StateEvent => ({
  version: '0.1.0',
  asks: [],
  agents: [],
  pages,
  inbox: {},
  heldOrigins: [],
  away: false,
});

const ids = (rows: SessionRow[]) => rows.map((r) => `${r.pageId}/${r.frameId}/${r.active ? 'on' : 'off'}`);

describe('pages deltas in the window', () => {
  it('replaces the rows of a page that changed where they stood, adds new pages last, drops forgotten ones', () => {
    let s = reduce(initialState, { type: 'state', state: state([row('p1'), row('p2'), row('p3')]), now: 0 });
    s = reduce(s, {
      type: 'pages',
      delta: {
        upsert: [row('p2', 'main', { active: false }), row('p2', 'f1'), row('p4')],
        gone: ['p1'],
        heldOrigins: ['http://evil.example'],
      },
    });
    expect(ids(s.pages)).toEqual(['p2/main/off', 'p2/f1/on', 'p3/main/on', 'p4/main/on']);
    expect(s.heldOrigins).toEqual(['http://evil.example']);
  });

  it('applies the same delta twice without doubling a row (a delta may repeat what a fresh state had)', () => {
    const delta = { upsert: [row('p1', 'main', { active: false })], gone: [], heldOrigins: [] };
    let s = reduce(initialState, { type: 'state', state: state([row('p1', 'main', { active: false })]), now: 0 });
    s = reduce(s, { type: 'pages', delta });
    s = reduce(s, { type: 'pages', delta });
    expect(ids(s.pages)).toEqual(['p1/main/off']);
  });
});
