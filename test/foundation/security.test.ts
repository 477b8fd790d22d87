import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { http, rawGet, startBridge } from '../helpers/bridge.js';
import { SseClient } from '../helpers/sse.js';

describe('trust boundaries', () => {
  it('answers health without anything sensitive', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/health`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, version: expect.any(String) });
    expect(JSON.stringify(res.body)).not.toContain(bridge.token);
  });

  it('serves every route bare and under /aiti', async () => {
    const bridge = await startBridge();
    expect((await http(`${bridge.url}/aiti/bridge/health`)).status).toBe(200);
    expect((await http(`${bridge.url}/aiti/bridge/sessions`, { token: bridge.token })).body).toEqual([]);
  });

  it('refuses a request whose Host is not a loopback name (DNS rebinding)', async () => {
    const bridge = await startBridge();
    const res = await rawGet(`${bridge.url}/bridge/health`, { host: 'evil.example' });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toMatchObject({
      error: expect.stringContaining('Host "evil.example" is not allowed'),
    });
    expect((await rawGet(`${bridge.url}/bridge/health`, { host: `localhost:${bridge.port}` })).status).toBe(200);
  });

  it('refuses a Host that only starts like a loopback address (127.0.0.1.evil.example resolves anywhere)', async () => {
    const bridge = await startBridge();
    for (const host of ['127.0.0.1.evil.example', `127.0.0.1.evil.example:${bridge.port}`, '127.0.0.1x']) {
      const res = await rawGet(`${bridge.url}/bridge/health`, { host });
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ error: expect.stringContaining(`Host "${host}" is not allowed`) });
    }
    expect((await rawGet(`${bridge.url}/bridge/health`, { host: `127.3.4.5:${bridge.port}` })).status).toBe(200);
  });

  it('accepts an extra host given with --allowed-hosts', async () => {
    const bridge = await startBridge({ allowedHosts: ['devbox.lan'] });
    expect((await rawGet(`${bridge.url}/bridge/health`, { host: 'devbox.lan:8777' })).status).toBe(200);
  });

  it('refuses a cross-origin browser request to a window endpoint, even with the token', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/sessions`, {
      token: bridge.token,
      headers: { origin: 'http://localhost:3000' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      error: expect.stringContaining('browser origin "http://localhost:3000" may not call'),
    });
    const own = await http(`${bridge.url}/bridge/sessions`, { token: bridge.token, headers: { origin: bridge.url } });
    expect(own.status).toBe(200);
  });

  it('refuses Origin: null (a sandboxed iframe, a file: page) on window routes and on MCP, even with the token', async () => {
    const bridge = await startBridge();
    const window = await http(`${bridge.url}/bridge/sessions`, { token: bridge.token, headers: { origin: 'null' } });
    expect(window.status).toBe(403);
    expect(window.body).toMatchObject({ error: expect.stringContaining('browser origin "null" may not call') });
    const mcp = await http(`${bridge.url}/mcp/mcp`, {
      headers: { origin: 'null', accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
    });
    expect(mcp.status).toBe(403);
    expect(JSON.stringify(mcp.body)).not.toContain('pages');
  });

  it('allows an origin given with --allowed-origins', async () => {
    const bridge = await startBridge({ allowedOrigins: ['http://localhost:9999'] });
    const res = await http(`${bridge.url}/bridge/sessions`, {
      token: bridge.token,
      headers: { origin: 'http://localhost:9999' },
    });
    expect(res.status).toBe(200);
  });

  it('refuses window endpoints without the token or with a wrong one', async () => {
    const bridge = await startBridge();
    const missing = await http(`${bridge.url}/bridge/sessions`);
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: expect.stringContaining('missing token') });
    expect((await http(`${bridge.url}/bridge/sessions`, { token: 'nope' })).status).toBe(401);
    expect((await fetch(`${bridge.url}/bridge/sse?role=ai`)).status).toBe(401);
    expect((await fetch(`${bridge.url}/bridge/sse?role=ai&token=nope`)).status).toBe(401);
  });

  it('writes a generated token into the data dir with mode 0600 and keeps it across restarts', async () => {
    const first = await startBridge();
    const file = join(first.context.appDir, 'token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const dataDir = first.context.config.dataDir;
    await first.close();
    const second = await startBridge({ dataDir });
    expect(second.token).toBe(first.token);
  });

  it('answers 413 for an oversized body', async () => {
    const bridge = await startBridge();
    const big = JSON.stringify({ instanceId: 'a', pageKey: 'x'.repeat(2 * 1024 * 1024), url: 'http://localhost/' });
    const res = await http(`${bridge.url}/bridge/claim`, { body: big });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ error: expect.stringContaining('limit') });
  });

  it('answers 400 with the reason for malformed JSON', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/claim`, { body: '{"instanceId": ' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: expect.stringContaining('not valid JSON') });
  });

  it('answers 400 naming the field when a body does not match the contract', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/claim`, {
      body: { instanceId: 42, pageKey: 'x', url: 'http://localhost/' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field: 'instanceId', error: expect.stringContaining('field "instanceId"') });
  });

  it('lets any page origin call the page endpoints (CORS open, preflight answered)', async () => {
    const bridge = await startBridge();
    const preflight = await fetch(`${bridge.url}/bridge/claim`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const claim = await http(`${bridge.url}/bridge/claim`, {
      headers: { origin: 'http://localhost:3000' },
      body: { instanceId: 'i1', pageKey: 'k', url: 'http://localhost:3000/' },
    });
    expect(claim.status).toBe(200);
    expect(claim.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('the human stream', () => {
  it('sends state first, then a pages delta when a page comes and goes', async () => {
    const bridge = await startBridge();
    const stream = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
    const state = await stream.next('state');
    expect(state.data).toMatchObject({ pages: [], asks: [], agents: [] });
    const claim = await http(`${bridge.url}/bridge/claim`, {
      body: { instanceId: 'i1', pageKey: 'k', url: 'http://localhost:3000/' },
    });
    const { pageId } = claim.body as { pageId: string };
    const delta = await stream.next('pages');
    expect(delta.data).toMatchObject({ upsert: [expect.objectContaining({ pageId, active: false })], gone: [] });
    stream.close();
  });
});
