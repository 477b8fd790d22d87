import { describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { createLanPeer, lanPeerUnavailable, PEER_SCRIPT, type PeerAnswer } from '../helpers/netns.js';

/**
 * Issue 24, High 3: with `--host 0.0.0.0` a machine on the LAN sent `Host: localhost` and got MCP without auth
 * (`file_stat /etc/passwd` answered), and a claim with `Origin: http://localhost:3000` came back operable. The
 * bridge read the headers, never the peer. Here the LAN machine is a real one as far as the bridge can tell: a
 * network namespace with its own address on a veth link.
 */

const unavailable = lanPeerUnavailable();

describe('a machine on the LAN reaches nothing of the local listener', () => {
  it.skipIf(unavailable)(
    `gets a 403 from every zone and the result socket, whatever Host, Origin and token it sends${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const lan = createLanPeer();
      const bridge = await startBridge({ host: '0.0.0.0' });
      const page = await http(`${bridge.url}/bridge/claim`, {
        headers: { origin: 'http://localhost:3000' },
        body: { instanceId: 'desk-tab', pageKey: 'k', url: 'http://localhost:3000/' },
      });
      expect(page.status).toBe(200);
      const { pageId, secret } = page.body as { pageId: string; secret: string };
      const host = `localhost:${bridge.port}`;
      const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const requests = [
        { name: 'health', method: 'GET', path: '/bridge/health', headers: { host } },
        { name: 'window files', method: 'GET', path: '/aiti/ui/', headers: { host } },
        { name: 'page script', method: 'GET', path: '/aiti/page.js', headers: { host } },
        {
          name: 'token proof',
          method: 'GET',
          path: '/bridge/token-proof?nonce=0123456789abcdef0123',
          headers: { host },
        },
        {
          name: 'mcp file_stat',
          method: 'POST',
          path: '/mcp/mcp',
          headers: { host, ...mcp },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'file_stat', arguments: { path: '/etc/passwd' } },
          }),
        },
        {
          name: 'claim',
          method: 'POST',
          path: '/bridge/claim',
          headers: { host, origin: 'http://localhost:3000', 'content-type': 'text/plain' },
          body: JSON.stringify({ instanceId: 'lan-tab', pageKey: 'k', url: 'http://localhost:3000/' }),
        },
        {
          name: 'window stream with the token',
          method: 'GET',
          path: `/bridge/sse?role=ai&token=${bridge.token}`,
          headers: { host, origin: `http://127.0.0.1:${bridge.port}` },
        },
        {
          name: 'sessions with the token',
          method: 'GET',
          path: '/bridge/sessions',
          headers: { host, authorization: `Bearer ${bridge.token}` },
        },
        {
          name: 'result socket',
          method: 'GET',
          path: `/bridge/result-socket?pageId=${pageId}&secret=${secret}`,
          headers: {
            host,
            origin: 'http://localhost:3000',
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          },
        },
      ];
      const answers = JSON.parse(
        await lan.node(PEER_SCRIPT, [`http://${lan.hostAddress}:${bridge.port}`, JSON.stringify(requests)]),
      ) as PeerAnswer[];

      expect(answers.map((a) => `${a.name}: ${a.status}`)).toEqual(requests.map((r) => `${r.name}: 403`));
      for (const answer of answers) {
        expect(answer.body).toContain(`${lan.peerAddress} is not a loopback address`);
        expect(answer.body).toContain('SSH');
      }
      expect(answers.map((a) => a.body).join('\n')).not.toMatch(/root:|"size"|"pageId"|"ok":true|"proof"/);
      // the same requests from this machine are served: the refusals above were the peer's address, nothing else
      expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    },
  );
});
