import { describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { createLanPeer, lanPeerUnavailable, PEER_SCRIPT, type PeerAnswer } from '../helpers/netns.js';

/**
 * With --remote on every interface, a machine on the LAN (a network namespace over veth, with its own address)
 * reaches only what the remote listener's open zone serves anyone: health, the window's files, the pairing step
 * and the agent-token proof. Everything else is a 401, whatever it claims with Host, Origin, proxy headers, a
 * forged device cookie or session, the human's token or the local agent token; and the local listener answers it nothing.
 */

const unavailable = lanPeerUnavailable();

describe('a machine on the LAN and the remote listener', () => {
  it.skipIf(unavailable)(
    `reaches nothing without a credential on the remote listener, and nothing at all on the local one${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    async () => {
      const lan = createLanPeer();
      const bridge = await startBridge({ host: '0.0.0.0', remote: { host: '0.0.0.0', port: 0 } });
      const { token: agentToken } = await bridge.context.agentTokens.create('lan-agent', 3_600_000);
      const remotePort = bridge.remote?.port ?? 0;
      const host = `localhost:${bridge.port}`;
      const mcp = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const fileStat = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'file_stat', arguments: { path: '/etc/passwd' } },
      });
      const forged = {
        host,
        origin: `http://127.0.0.1:${bridge.port}`,
        'x-forwarded-for': '127.0.0.1',
        cookie: 'aiti_device=aiti_device_0123456789abcdef_' + 'A'.repeat(43),
        authorization: 'Bearer aiti_device_0123456789abcdef_' + 'B'.repeat(43),
      };
      const needsCredential = [
        { name: 'sessions', method: 'GET', path: '/bridge/sessions', headers: forged },
        { name: 'window stream', method: 'GET', path: `/bridge/sse?role=ai&token=${bridge.token}`, headers: forged },
        {
          name: 'answer with the human token',
          method: 'POST',
          path: '/bridge/answer',
          headers: { ...forged, authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ askId: 'a1', action: 'answer', value: true }),
        },
        {
          name: 'mcp with the local agent token',
          method: 'POST',
          path: '/mcp/mcp',
          headers: { ...forged, ...mcp, authorization: `Bearer ${bridge.context.agentToken}` },
          body: fileStat,
        },
        { name: 'mcp bare', method: 'POST', path: '/aiti/mcp/mcp', headers: mcp, body: fileStat },
        { name: 'devices', method: 'GET', path: '/bridge/devices', headers: forged },
        { name: 'pairing code', method: 'POST', path: '/bridge/pairing', headers: forged, body: '{}' },
        {
          name: 'claim (pages stay local)',
          method: 'POST',
          path: '/bridge/claim',
          headers: { origin: 'http://localhost:3000', 'content-type': 'text/plain' },
          body: JSON.stringify({ instanceId: 'lan-tab', pageKey: 'k', url: 'http://localhost:3000/' }),
        },
        { name: 'page script', method: 'GET', path: '/aiti/page.js', headers: {} },
        { name: 'no such route', method: 'GET', path: '/bridge/secret-admin', headers: {} },
      ];
      const open = [
        { name: 'health', method: 'GET', path: '/bridge/health', headers: {} },
        { name: 'window files', method: 'GET', path: '/aiti/ui/', headers: {} },
        {
          name: 'pairing with a guessed code',
          method: 'POST',
          path: '/bridge/pair/start',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            code: 'A'.repeat(24),
            name: 'intruder',
            publicKey: { kty: 'EC', crv: 'P-256', x: 'A'.repeat(43), y: 'A'.repeat(43) },
          }),
        },
        {
          name: 'token proof of an unknown id',
          method: 'GET',
          path: '/bridge/token-proof?nonce=0123456789abcdef0123&of=agent&id=0123456789abcdef',
          headers: {},
        },
      ];
      const withToken = [
        {
          name: 'mcp with its agent token',
          method: 'POST',
          path: '/mcp/mcp',
          headers: { ...mcp, authorization: `Bearer ${agentToken}` },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'bridge_status', arguments: {} },
          }),
        },
      ];
      const ask = async (port: number, list: unknown[]) =>
        JSON.parse(
          await lan.node(PEER_SCRIPT, [`http://${lan.hostAddress}:${port}`, JSON.stringify(list)]),
        ) as PeerAnswer[];

      const refused = await ask(remotePort, needsCredential);
      expect(refused.map((a) => `${a.name}: ${a.status}`)).toEqual(needsCredential.map((r) => `${r.name}: 401`));
      expect(refused.map((a) => a.body).join('\n')).not.toMatch(/root:|"size"|"pageId"|"proof"|"asks"|serverInfo/);

      const served = await ask(remotePort, open);
      expect(served.map((a) => `${a.name}: ${a.status}`)).toEqual([
        'health: 200',
        'window files: 200',
        'pairing with a guessed code: 403',
        'token proof of an unknown id: 200',
      ]);
      // the window's files hold no token; a proof for an id nobody holds proves nothing
      expect(served[1]?.body).not.toContain(bridge.token);

      // the same machine with an agent token is let in: the refusals above were the missing credential
      const let_in = await ask(remotePort, withToken);
      expect(let_in[0]?.status).toBe(200);
      expect(let_in[0]?.body).toContain('lan-agent');

      // the local listener serves it nothing, credential or not
      const local = await ask(bridge.port, [...open, ...withToken]);
      expect(local.map((a) => a.status)).toEqual([...open, ...withToken].map(() => 403));
      expect((await http(`${bridge.url}/bridge/health`)).status).toBe(200);
    },
  );
});
