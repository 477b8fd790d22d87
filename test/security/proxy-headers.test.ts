import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { claimPage, openPageStream } from '../helpers/page-wire.js';

/**
 * Issue 24: every tunnel a developer uses (ngrok, cloudflared, Tailscale Serve, a reverse proxy) delivers its
 * traffic from 127.0.0.1, so a loopback peer is not enough. Those that speak HTTP say so in their headers; the
 * local listener refuses such requests, and says how to reach the bridge from elsewhere.
 */

/** A reverse proxy on loopback, as ngrok or cloudflared run one: it forwards each request and says who sent it. */
async function tunnelTo(target: string, added: Record<string, string>): Promise<string> {
  const proxy = createServer((req, res) => {
    const up = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: { ...req.headers, ...added } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => proxy.close(() => resolve())));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe('requests that came through a proxy or tunnel', () => {
  it('a public tunnel in front of the bridge gets 403 on every zone, with the way to do it right', async () => {
    const bridge = await startBridge();
    const tunnel = await tunnelTo(bridge.url, { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' });
    const tries = [
      await http(`${tunnel}/bridge/health`),
      await http(`${tunnel}/aiti/ui/`),
      await http(`${tunnel}/bridge/sessions`, { token: bridge.token }),
      await http(`${tunnel}/bridge/claim`, { body: { instanceId: 'i', pageKey: 'k', url: 'http://localhost:3000/' } }),
      await http(`${tunnel}/mcp/mcp`, {
        headers: { accept: 'application/json, text/event-stream' },
        body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
      }),
    ];
    expect(tries.map((t) => t.status)).toEqual([403, 403, 403, 403, 403]);
    for (const t of tries) {
      const { error } = t.body as { error: string };
      expect(error).toContain('came through a proxy or tunnel (it carries a "x-forwarded-for" header)');
      expect(error).toContain(`ssh -L ${bridge.port}:127.0.0.1:${bridge.port}`);
      expect(error).toContain('--remote');
    }
    // straight from this machine, the same bridge answers
    expect((await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).status).toBe(200);
  });

  it.each([
    ['Forwarded', 'for=198.51.100.7;proto=https'],
    ['X-Forwarded-Host', 'devbox.example'],
    ['X-Real-IP', '198.51.100.7'],
    ['Cf-Connecting-Ip', '198.51.100.7'],
    ['Tailscale-User-Login', 'alice@example.com'],
    ['Via', '1.1 proxy.example'],
    ['X-Client-IP', '198.51.100.7'],
    ['True-Client-IP', '198.51.100.7'],
    ['X-Cluster-Client-IP', '198.51.100.7'],
    ['Fly-Client-IP', '198.51.100.7'],
    ['X-Original-Forwarded-For', '198.51.100.7'],
  ])('refuses a request carrying %s, even with the token', async (name, value) => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/bridge/sessions`, { token: bridge.token, headers: { [name]: value } });
    expect(res.status).toBe(403);
    expect((res.body as { error: string }).error).toContain(`it carries a "${name}" header`);
  });

  it('refuses the result socket upgrade of a real page through a tunnel; the same upgrade directly opens', async () => {
    const bridge = await startBridge();
    const { instanceId, claim } = await claimPage(bridge.url);
    const stream = await openPageStream(bridge.url, { instanceId, secret: claim.secret, origin: DEV });
    onCleanup(() => stream.close());
    const url = `${bridge.url}/bridge/result-socket?pageId=${claim.pageId}&secret=${claim.secret}`;
    const tunnelled = await upgrade(url, { 'cf-connecting-ip': '198.51.100.7' });
    expect(tunnelled.status).toBe(403);
    expect((JSON.parse(tunnelled.body) as { error: string }).error).toContain('it carries a "cf-connecting-ip" header');
    expect((await upgrade(url, {})).status).toBe(101);
  });
});

const DEV = 'http://localhost:3000';

/** A WebSocket upgrade by hand: the status the bridge answers (101 when it accepts) and what it said. */
function upgrade(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        origin: DEV,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        ...headers,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: '' });
    });
    req.on('error', reject);
    req.end();
  });
}
