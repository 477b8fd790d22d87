import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';

/**
 * Property-based fuzzing of every REST body and query: whatever arrives, the bridge answers a 2xx or a 4xx
 * with a reason — never a 5xx, a crash or a hang — and stays healthy afterwards.
 */

const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 12 }), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Bodies near the contract: the right keys with wrong or odd values, plus unrelated junk. */
function nearBody(keys: string[]) {
  return fc.oneof(
    jsonish,
    fc.record(Object.fromEntries(keys.map((k) => [k, jsonish])), { requiredKeys: [] }),
    fc.string().map((s) => ({ raw: s })),
  );
}

const ROUTES: Array<{ path: string; keys: string[]; window?: boolean }> = [
  { path: '/bridge/claim', keys: ['instanceId', 'secret', 'pageKey', 'url', 'frameworks', 'title'] },
  { path: '/bridge/register', keys: ['pageId', 'secret', 'frameIds', 'urls'] },
  { path: '/bridge/result', keys: ['pageId', 'requestId', 'ok', 'result', 'error', 'secret'] },
  { path: '/bridge/event', keys: ['pageId', 'type', 'payload', 'secret', 'frameId'] },
  { path: '/bridge/allow-origin', keys: ['origin'], window: true },
  { path: '/bridge/push', keys: ['to', 'text', 'kind', 'ref'], window: true },
  { path: '/bridge/answer', keys: ['askId', 'action', 'value', 'reason', 'note', 'remember'], window: true },
  { path: '/bridge/presence', keys: ['away'], window: true },
];

describe('fuzzing the REST surface', () => {
  it('answers every POST body with a 2xx or a 4xx that has a reason', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url);
    for (const route of ROUTES) {
      await fc.assert(
        fc.asyncProperty(nearBody(route.keys), fc.boolean(), async (body, withPage) => {
          const sent =
            withPage && body && typeof body === 'object' && !Array.isArray(body)
              ? { ...body, pageId: page.pageId, secret: page.secret }
              : body;
          const res = await http(`${bridge.url}${route.path}`, {
            body: JSON.stringify(sent),
            token: route.window ? bridge.token : undefined,
          });
          expect(res.status, `${route.path} ${JSON.stringify(sent)}`).toBeLessThan(500);
          if (res.status >= 400) expect(res.body).toMatchObject({ error: expect.any(String) });
        }),
        { numRuns: 60 },
      );
    }
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('answers raw bytes that are not JSON with 400', async () => {
    const bridge = await startBridge();
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), async (raw) => {
        let isJson = true;
        try {
          JSON.parse(raw);
        } catch {
          isJson = false;
        }
        const res = await http(`${bridge.url}/bridge/claim`, { body: raw });
        expect(res.status).toBeLessThan(500);
        if (!isJson) expect(res.status).toBe(400);
      }),
      { numRuns: 100 },
    );
  });

  it('answers every query on the streams and history with a 4xx, never a 5xx or a hang', async () => {
    const bridge = await startBridge();
    const params = fc.dictionary(
      fc.constantFrom(
        'role',
        'instanceId',
        'frameId',
        'url',
        'frameworks',
        'secret',
        'agentId',
        'before',
        'limit',
        'token',
      ),
      fc.string({ maxLength: 40 }),
      { maxKeys: 6 },
    );
    await fc.assert(
      fc.asyncProperty(
        params,
        fc.constantFrom('/bridge/sse', '/bridge/messages', '/bridge/sessions', '/bridge/inbox-status'),
        async (query, path) => {
          const controller = new AbortController();
          const res = await fetch(`${bridge.url}${path}?${new URLSearchParams(query)}`, {
            signal: controller.signal,
            headers: { authorization: `Bearer ${bridge.token}` },
          });
          expect(res.status).toBeLessThan(500);
          controller.abort();
        },
      ),
      { numRuns: 80 },
    );
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });

  it('answers any body on the MCP endpoint with a JSON-RPC answer or a 4xx, never a 5xx or a hang', async () => {
    const bridge = await startBridge();
    const rpc = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), jsonish),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), jsonish),
        method: fc.oneof(
          fc.constantFrom(
            'initialize',
            'tools/list',
            'tools/call',
            'ping',
            'notifications/initialized',
            'resources/list',
          ),
          fc.string({ maxLength: 20 }),
        ),
        params: jsonish,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(rpc, fc.array(rpc, { maxLength: 3 }), jsonish),
        fc.constantFrom(undefined, 'no-such-session'),
        async (body, sessionId) => {
          const res = await http(`${bridge.url}/mcp/mcp`, {
            body: JSON.stringify(body),
            headers: {
              accept: 'application/json, text/event-stream',
              ...(sessionId ? { 'mcp-session-id': sessionId } : {}),
            },
          });
          expect(res.status, JSON.stringify(body)).toBeLessThan(500);
        },
      ),
      { numRuns: 120 },
    );
    expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
  });
});
