import { randomUUID } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { PagesDelta, SessionRow, StateEvent } from '../../bridge/protocol/index.js';
import { initialState, reduce, type Action } from '../../renderer/src/store.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { claimPage, openPageStream } from '../helpers/page-wire.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

/** Issue 16, Medium 5: a page (or anything on loopback) must not be able to exhaust the bridge. */

interface LimitLine {
  limit: number;
  current?: number;
  refused: number;
}

const watchers = new WeakMap<Bridge, Awaited<ReturnType<typeof connectAgent>>>();

/** The `limits` section of bridge_status, as an agent reads it. */
async function limitsOf(bridge: Bridge): Promise<Record<string, LimitLine>> {
  let agent = watchers.get(bridge);
  if (!agent) {
    agent = await connectAgent(bridge.url, { clientName: 'status-reader' });
    watchers.set(bridge, agent);
  }
  const result = await callTool(agent, 'bridge_status');
  const limits = (result.structuredContent as { limits?: Record<string, LimitLine> }).limits;
  expect(limits, 'bridge_status has a limits section').toBeDefined();
  return limits ?? {};
}

function rawClaim(bridge: Bridge, origin: string, instanceId = randomUUID()) {
  return http(`${bridge.url}/bridge/claim`, {
    headers: { origin, 'content-type': 'text/plain' },
    body: { instanceId, pageKey: 'k', url: `${origin}/` },
  });
}

function nested(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}

describe('page limits', () => {
  it('answers 429 naming the limit once a held origin has claimed its share of pages, and counts it', async () => {
    const bridge = await startBridge({ limits: { heldPagesPerOrigin: 5 } });
    const statuses: number[] = [];
    let refusal: unknown;
    for (let i = 0; i < 8; i++) {
      const res = await rawClaim(bridge, 'http://evil.example:5000');
      statuses.push(res.status);
      if (res.status !== 200) refusal = res.body;
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(JSON.stringify(refusal)).toMatch(/http:\/\/evil\.example:5000.*5 pages/);
    expect((await limitsOf(bridge)).pagesPerOrigin).toMatchObject({ refused: 3 });
  });

  it('makes room for a loopback origin by forgetting its oldest closed page, and refuses when all are open', async () => {
    const bridge = await startBridge({ limits: { pagesPerOrigin: 3 } });
    const first = await claimPage(bridge.url, { origin: 'http://localhost:3000' });
    const open = await Promise.all(
      [1, 2].map(async () => {
        const page = await claimPage(bridge.url, { origin: 'http://localhost:3000' });
        return openPageStream(bridge.url, { instanceId: page.instanceId, secret: page.claim.secret });
      }),
    );
    // the first page never opened a stream: a fourth claim replaces it
    const fourth = await rawClaim(bridge, 'http://localhost:3000');
    expect(fourth.status).toBe(200);
    const sessions = (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as SessionRow[];
    expect(sessions.map((s) => s.pageId)).not.toContain(first.claim.pageId);
    const fourthPage = fourth.body as { pageId: string; secret: string };
    await openPageStream(bridge.url, { instanceId: sessions.at(-1)?.instanceId ?? '', secret: fourthPage.secret });
    const fifth = await rawClaim(bridge, 'http://localhost:3000');
    expect(fifth.status).toBe(429);
    expect(JSON.stringify(fifth.body)).toContain('close a tab');
    for (const s of open) s.close();
  });

  it('caps all pages together with a 503; a new loopback origin takes the place of the oldest closed page', async () => {
    const bridge = await startBridge({ limits: { pagesTotal: 4 } });
    // pages a flood claimed and never opened: a new dev server's page replaces the oldest, a website's does not
    for (let i = 0; i < 4; i++) expect((await rawClaim(bridge, `http://localhost:${3000 + i}`)).status).toBe(200);
    expect((await rawClaim(bridge, 'http://evil.example:5000')).status).toBe(503);
    const fresh = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/' });
    const sessions = (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as SessionRow[];
    expect(sessions.map((s) => s.url)).toEqual([
      'http://localhost:3001/',
      'http://localhost:3002/',
      'http://localhost:3003/',
      'http://localhost:5173/',
    ]);
    // with every page open, nothing makes room
    for (let i = 0; i < 3; i++) await ScriptedPage.connect(bridge.url, { url: `http://localhost:${4000 + i}/` });
    const refused = await rawClaim(bridge, 'http://localhost:6000');
    expect(refused.status).toBe(503);
    expect(JSON.stringify(refused.body)).toContain('4 pages (limit pagesTotal)');
    expect((await limitsOf(bridge)).pagesTotal).toMatchObject({ limit: 4, current: 4, refused: 2 });
    fresh.close();
  });

  it('answers 503 when too many page streams are open', async () => {
    const bridge = await startBridge({ limits: { pageStreams: 2 } });
    const streams: SseClient[] = [];
    for (let i = 0; i < 2; i++) {
      const page = await claimPage(bridge.url);
      streams.push(await openPageStream(bridge.url, { instanceId: page.instanceId, secret: page.claim.secret }));
    }
    const third = await claimPage(bridge.url);
    const refused = await fetch(
      `${bridge.url}/bridge/sse?role=page&instanceId=${third.instanceId}&secret=${third.claim.secret}`,
    );
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(/2 page streams/);
    // a closed stream frees its place
    streams[0]?.close();
    await waitFor(async () => {
      const again = await fetch(
        `${bridge.url}/bridge/sse?role=page&instanceId=${third.instanceId}&secret=${third.claim.secret}`,
      );
      const ok = again.status === 200;
      await again.body?.cancel();
      return ok;
    });
    for (const s of streams) s.close();
  });

  it('keeps a page’s buffered records under its byte budget and refuses 503 past the total', async () => {
    const bridge = await startBridge({ limits: { bufferBytesPerPage: 64 * 1024, bufferBytesTotal: 160 * 1024 } });
    const post = (pageId: string, secret: string, n: number) =>
      http(`${bridge.url}/bridge/event`, {
        body: {
          pageId,
          secret,
          type: 'page_log',
          payload: Array.from({ length: 10 }, (_, i) => ({
            level: 'log',
            text: `${n}-${i} ${'x'.repeat(10_000)}`,
            at: new Date().toISOString(),
          })),
        },
      });
    const a = await claimPage(bridge.url);
    for (let n = 0; n < 20; n++) expect((await post(a.claim.pageId, a.claim.secret, n)).status).toBe(204);
    let limits = await limitsOf(bridge);
    expect(limits.bufferBytesTotal?.current).toBeLessThanOrEqual(64 * 1024);
    expect(limits.bufferBytesPerPage?.refused).toBeGreaterThan(0);
    // the newest records are the ones kept
    const agent = await connectAgent(bridge.url);
    const logs = await callTool(agent, 'page_logs', { pageId: a.claim.pageId, limit: 1 });
    expect(JSON.stringify(logs.structuredContent)).toContain('19-9');

    const statuses: number[] = [];
    for (let p = 0; p < 3; p++) {
      const page = await claimPage(bridge.url);
      statuses.push((await post(page.claim.pageId, page.claim.secret, 0)).status);
      statuses.push((await post(page.claim.pageId, page.claim.secret, 1)).status);
      statuses.push((await post(page.claim.pageId, page.claim.secret, 2)).status);
    }
    expect(statuses).toContain(503);
    limits = await limitsOf(bridge);
    expect(limits.bufferBytesTotal?.current).toBeLessThanOrEqual(160 * 1024);
    expect(limits.bufferBytesTotal?.refused).toBeGreaterThan(0);
  });

  it('does not let one page register frames without end', async () => {
    const bridge = await startBridge({ limits: { framesPerPage: 10 } });
    const page = await claimPage(bridge.url);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const frameIds = Array.from({ length: 5 }, (_, k) => `f${i * 5 + k + 1}`);
      const res = await http(`${bridge.url}/bridge/register`, {
        body: { pageId: page.claim.pageId, secret: page.claim.secret, frameIds },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([204, 429, 429]);
  });
});

describe('JSON depth', () => {
  it('answers 400 naming the depth limit for deeply nested JSON, on page, window and MCP routes', async () => {
    const bridge = await startBridge();
    const deep = nested(100_000);
    const claim = await http(`${bridge.url}/bridge/claim`, { body: `{"instanceId":${deep}}` });
    expect(claim.status).toBe(400);
    expect(JSON.stringify(claim.body)).toMatch(/nested deeper than \d+/);
    const event = await http(`${bridge.url}/bridge/event`, {
      body: `{"pageId":"p1","type":"page_log","payload":[${nested(5000)}]}`,
    });
    expect(event.status).toBe(400);
    const push = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: `{"text":${deep}}` });
    expect(push.status).toBe(400);
    const mcp = await http(`${bridge.url}/mcp/mcp`, {
      headers: { accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"bridge_status","arguments":${nested(20_000)}}}`,
    });
    expect(mcp.status).toBe(400);
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });
});

/** Folds the window's role=ai events through the renderer's own reducer, as the window does. */
function foldWindow(events: Array<{ event: string; data: unknown }>) {
  let state = initialState;
  for (const { event, data } of events) {
    let action: Action | undefined;
    if (event === 'state') action = { type: 'state', state: data as StateEvent, now: 0 };
    if (event === 'pages') action = { type: 'pages', delta: data as PagesDelta };
    if (action) state = reduce(state, action);
  }
  return state;
}

const rowKey = (r: SessionRow) => `${r.pageId}/${r.frameId}/${r.active}/${r.url}`;

describe('window broadcasts', () => {
  it('sends coalesced page deltas that rebuild the same list as GET /bridge/sessions', async () => {
    // 300 claims at once from one origin: past the claim rate limit (claim-flood.test.ts), out of the way here
    const bridge = await startBridge({ limits: { claimBurst: 1000 } });
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
    await window.next('state');
    const CLAIMS = 300;
    const claimed = await Promise.all(
      Array.from({ length: CLAIMS }, (_, i) => claimPage(bridge.url, { url: `http://localhost:3000/${i}` })),
    );
    const streams = await Promise.all(
      claimed.slice(0, 20).map((p) => openPageStream(bridge.url, { instanceId: p.instanceId, secret: p.claim.secret })),
    );
    for (const s of streams.slice(0, 10)) s.close();
    const sessions = async () =>
      ((await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as SessionRow[]).map(rowKey).sort();
    await waitFor(async () => {
      const shown = foldWindow(window.events).pages.map(rowKey).sort();
      return JSON.stringify(shown) === JSON.stringify(await sessions());
    }, 10_000);
    const deltas = window.events.filter((e) => e.event === 'pages').map((e) => e.data as PagesDelta);
    // 300 claims, 20 opens and 10 closes: each delta carries only the pages that changed (a full list per change
    // would be ~45,000 rows), and changes that arrive together share one delta
    const rowsSent = deltas.reduce((n, d) => n + d.upsert.length, 0);
    expect(rowsSent).toBeLessThan(2 * CLAIMS);
    expect(deltas.length).toBeLessThan(CLAIMS);
    expect(Math.max(...deltas.map((d) => new Set(d.upsert.map((r) => r.pageId)).size))).toBeGreaterThan(1);
    window.close();
  });

  it('shows a forgotten page leaving the window', async () => {
    // long enough that the window is seen to show the page before the TTL takes it away, on a busy machine too
    const bridge = await startBridge({ ttlMs: 1000 });
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
    await window.next('state');
    const page = await claimPage(bridge.url);
    await waitFor(() => foldWindow(window.events).pages.some((r) => r.pageId === page.claim.pageId));
    await waitFor(() => !foldWindow(window.events).pages.some((r) => r.pageId === page.claim.pageId), 5000);
    window.close();
  });
});

/** A window whose reader stopped reading: the socket stays open, nothing is consumed. */
function stalledWindow(bridge: Bridge): Promise<{ res: IncomingMessage; ended: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const req = get(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`, (res) => {
      res.pause();
      const ended = new Promise<void>((done) => {
        res.once('end', () => done());
        res.once('close', () => done());
        res.once('error', () => done());
      });
      resolve({ res, ended });
    });
    req.on('error', reject);
  });
}

describe('slow SSE readers', () => {
  it('disconnects a stalled window instead of buffering for it, and counts it', async () => {
    const bridge = await startBridge({ limits: { sseBufferBytes: 256 * 1024 } });
    await connectAgent(bridge.url, { clientName: 'listener' });
    const healthy = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
    const stalled = await stalledWindow(bridge);
    await waitFor(async () => ((await limitsOf(bridge)).sseReaders?.current ?? 0) >= 2);
    let disconnected = false;
    void stalled.ended.then(() => (disconnected = true));
    // up to 300 × 100 KB: far past the socket buffers and the 256 KiB budget
    const text = 'y'.repeat(100_000);
    for (let i = 0; i < 300 && (i % 10 || (await limitsOf(bridge)).sseReaders?.refused === 0); i++) {
      const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'listener', text } });
      expect(res.status).toBe(200);
    }
    const limits = await limitsOf(bridge);
    expect(limits.sseReaders?.refused).toBe(1);
    // the stalled reader, once it reads again, finds its stream ended; the healthy one is still live
    stalled.res.resume();
    await stalled.ended;
    expect(disconnected).toBe(true);
    expect(healthy.closed).toBe(false);
    expect(limits.sseReaders?.current).toBe(1);
    healthy.close();
  });
});

/** An MCP session (raw HTTP) that declared claude/channel, with its GET stream open but never read. */
async function stalledMcpSession(
  bridge: Bridge,
  name: string,
): Promise<{ res: IncomingMessage; ended: Promise<void> }> {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const init = await fetch(`${bridge.url}/mcp/mcp`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { experimental: { 'claude/channel': {} } },
        clientInfo: { name, version: '1' },
      },
    }),
  });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id') ?? '';
  const sessionHeaders = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  await (
    await fetch(`${bridge.url}/mcp/mcp`, {
      method: 'POST',
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    })
  ).text();
  return new Promise((resolve, reject) => {
    get(
      `${bridge.url}/mcp/mcp`,
      { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } },
      (res) => {
        res.pause();
        const ended = new Promise<void>((done) => {
          res.once('end', () => done());
          res.once('close', () => done());
          res.once('error', () => done());
        });
        resolve({ res, ended });
      },
    ).on('error', reject);
  });
}

describe('slow MCP readers', () => {
  it('disconnects an MCP client that stopped reading its GET stream, and the agent goes offline', async () => {
    const bridge = await startBridge({ limits: { sseBufferBytes: 256 * 1024 } });
    const stalled = await stalledMcpSession(bridge, 'sleepy');
    await waitFor(async () => {
      const res = await http(`${bridge.url}/bridge/inbox-status`, { token: bridge.token });
      const status = await limitsOf(bridge);
      return res.status === 200 && status.sseReaders !== undefined && bridge.context.agents.get('sleepy') !== undefined;
    });
    const text = 'z'.repeat(100_000);
    for (let i = 0; i < 300 && (i % 10 || (await limitsOf(bridge)).sseReaders?.refused === 0); i++) {
      const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'sleepy', text } });
      expect(res.status).toBe(200);
    }
    expect((await limitsOf(bridge)).sseReaders?.refused).toBe(1);
    stalled.res.resume();
    await stalled.ended;
    const agent = await connectAgent(bridge.url, { clientName: 'observer' });
    const status = await callTool(agent, 'bridge_status');
    const offline = (status.structuredContent as { agents: { offline: Array<{ agentId: string }> } }).agents.offline;
    expect(offline.map((a) => a.agentId)).toContain('sleepy');
  });
});

describe('a claim flood', () => {
  it(
    'keeps the bridge small and live: bounded pages, a few window deltas, health and agents answering',
    {
      timeout: 90_000,
    },
    async () => {
      // the claim rate limit (claim-flood.test.ts) would stop this flood first: here it is out of the way, so the
      // page limits and the window's deltas are what is tested
      const bridge = await startBridge({
        limits: { pagesPerOrigin: 100, claimBurst: 10_000, claimBurstTotal: 10_000 },
      });
      const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
      await window.next('state');
      const agent = await connectAgent(bridge.url, { clientName: 'flood-watcher' });
      const FLOOD = 500;
      const flood = async (origin: string) => {
        const statuses = new Map<number, number>();
        for (let from = 0; from < FLOOD; from += 100) {
          const batch = await Promise.all(
            Array.from({ length: 100 }, () => rawClaim(bridge, origin).then((r) => r.status)),
          );
          for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
        }
        return statuses;
      };
      // a foreign site: held, refused past its share
      const foreign = await flood('http://evil.example:5000');
      expect(foreign.get(200)).toBe(20);
      expect(foreign.get(429)).toBe(FLOOD - 20);
      // a page of the dev server gone wild: every claim answered, its closed pages replaced
      const loopback = await flood('http://localhost:3000');
      expect(loopback.get(200)).toBe(FLOOD);

      expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
      const status = await callTool(agent, 'bridge_status');
      expect(status.isError).toBeFalsy();
      const limits = await limitsOf(bridge);
      expect(limits.pagesTotal?.current).toBe(120);
      expect(limits.pagesPerOrigin?.refused).toBe(FLOOD - 20);
      const sessions = (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as SessionRow[];
      expect(sessions).toHaveLength(120);
      // the window heard about it in a few coalesced deltas, and they add up to what the bridge holds
      await waitFor(() => foldWindow(window.events).pages.length === 120, 5000);
      // each page claimed is sent once (then once as gone when replaced), never the whole list per claim
      const deltas = window.events.filter((e) => e.event === 'pages').map((e) => e.data as PagesDelta);
      expect(deltas.reduce((n, d) => n + d.upsert.length, 0)).toBeLessThan(2 * (FLOOD + 20));
      expect(window.closed).toBe(false);
      window.close();
    },
  );
});
