import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { credentialHash, credentialProof } from '../../bridge/credentials.js';
import { Pairings } from '../../bridge/devices/pairing.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';

/** Pairs a device over real HTTP as the phone's page does, approving at the desk; returns its cookie header. */
async function pair(bridge: Bridge, name = 'tablet'): Promise<{ cookie: string; setCookie: string }> {
  const remote = bridge.remote?.url ?? '';
  const code = await http(`${bridge.url}/bridge/pairing`, { token: bridge.token, body: {} });
  const link = (code.body as { url: string }).url;
  const started = await http(`${remote}/bridge/pair/start`, {
    body: { code: new URL(link).hash.replace('#code=', ''), name },
  });
  const { secret } = started.body as { secret: string };
  const waiting = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
  const requestId = (waiting.body as { pairings: Array<{ requestId: string }> }).pairings[0]?.requestId;
  await http(`${bridge.url}/bridge/pairing/approve`, { token: bridge.token, body: { requestId } });
  const approved = await http(`${remote}/bridge/pair/status`, { body: { secret } });
  expect(approved.body).toEqual({ state: 'approved' });
  const setCookie = approved.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0] ?? '', setCookie };
}

const remoteBridge = () => startBridge({ remote: { host: '127.0.0.1', port: 0 } });

describe('the remote listener', () => {
  it('over plain HTTP at a loopback name the device cookie is HttpOnly and SameSite=Strict, not Secure', async () => {
    const bridge = await remoteBridge();
    const { setCookie } = await pair(bridge);
    expect(setCookie).toMatch(
      /^aiti_device=aiti_device_[0-9a-f]{16}_[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict$/,
    );
    // the collected token is handed over once
    const again = await http(`${bridge.remote?.url}/bridge/pair/status`, { body: { secret: 'x'.repeat(32) } });
    expect(again.body).toEqual({ state: 'expired' });
  });

  it("takes a device's cookie only on the window's own requests: another origin of the same site is refused", async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const { cookie } = await pair(bridge);
    const own = await http(`${remote}/bridge/whoami`, { headers: { cookie, origin: remote } });
    expect(own).toMatchObject({ status: 200, body: { party: 'device', name: 'tablet' } });
    const devServer = await http(`${remote}/bridge/push`, {
      headers: { cookie, origin: 'http://127.0.0.1:3000' },
      body: { text: 'from the dev app' },
    });
    expect(devServer.status).toBe(401);
    expect((devServer.body as { error: string }).error).toContain('http://127.0.0.1:3000');
    const sameSite = await http(`${remote}/bridge/sessions`, { headers: { cookie, 'sec-fetch-site': 'same-site' } });
    expect(sameSite.status).toBe(401);
  });

  it('gives each credential its own party: devices the window, agents MCP, nobody the desk', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const { cookie } = await pair(bridge);
    const { token } = await bridge.context.agentTokens.create('far-agent', 3_600_000);
    const deviceOnMcp = await http(`${remote}/mcp/mcp`, { headers: { cookie }, body: '{}' });
    expect(deviceOnMcp.status).toBe(403);
    const agentOnWindow = await http(`${remote}/bridge/answer`, {
      token,
      body: { askId: 'a1', action: 'answer', value: true },
    });
    expect(agentOnWindow.status).toBe(403);
    expect((agentOnWindow.body as { error: string }).error).toContain('agents may not answer asks');
    const deviceOnDesk = await http(`${remote}/bridge/pairing`, { headers: { cookie }, body: {} });
    expect(deviceOnDesk.status).toBe(403);
    expect((deviceOnDesk.body as { error: string }).error).toContain('only the desk window');
  });

  it('a pairing code is used once, a guessed one is refused, and attempts are rate-limited for everyone', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const code = await http(`${bridge.url}/bridge/pairing`, { token: bridge.token, body: {} });
    const value = new URL((code.body as { url: string }).url).hash.replace('#code=', '');
    expect(Buffer.from(value, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect((await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'first' } })).status).toBe(200);
    const reused = await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'racer' } });
    expect(reused.status).toBe(403);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push(
        (
          await http(`${remote}/bridge/pair/start`, {
            body: { code: randomBytes(18).toString('base64url'), name: 'g' },
          })
        ).status,
      );
    expect(statuses.slice(0, 3)).toEqual([403, 403, 403]);
    const limited = await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'g' } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('an agent token speaks for its agent id only, and another token cannot ride on its session', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const { token } = await bridge.context.agentTokens.create('alpha', 3_600_000);
    const { token: other } = await bridge.context.agentTokens.create('beta', 3_600_000);
    const alpha = await connectAgent(remote, { clientName: 'beta', token });
    expect((await callTool(alpha, 'aiti_hello')).structuredContent).toMatchObject({ agentId: 'alpha' });
    const taken = await callTool(alpha, 'aiti_hello', { agentId: 'beta' });
    expect(taken.isError).toBe(true);
    // nor an id nobody has: the token binds its session to one id
    const free = await callTool(alpha, 'aiti_hello', { agentId: 'nobodys-id' });
    expect(free.isError).toBe(true);
    expect(JSON.stringify(free.content)).toContain(
      'this connection\'s agent token belongs to agent \\"alpha\\" and speaks for that id only, not \\"nobodys-id\\"',
    );
    // a stateless call with the token names its own id, or none other
    const own = await connectAgent(remote, { transport: 'stateless', token, headers: { 'x-aiti-agent': 'alpha' } });
    expect((await callTool(own, 'bridge_status')).structuredContent).toMatchObject({ you: 'alpha' });
    await expect(
      connectAgent(remote, { transport: 'stateless', token, headers: { 'x-aiti-agent': 'nobodys-id' } }),
    ).rejects.toThrow(/agent token belongs to agent \\"alpha\\"/);
    // a local client named like a token's agent gets another id, and cannot take it with aiti_hello
    const local = await connectAgent(bridge.url, { clientName: 'alpha' });
    expect((await callTool(local, 'aiti_hello')).structuredContent).toMatchObject({ agentId: 'alpha-2' });
    const claim = await callTool(local, 'aiti_hello', { agentId: 'alpha' });
    expect(JSON.stringify(claim.content)).toContain('belongs to an agent token');

    const init = await fetch(`${remote}/mcp/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    await init.body?.cancel();
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const hijack = await http(`${remote}/mcp/mcp`, {
      token: other,
      headers: { 'mcp-session-id': sessionId, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(hijack.status).toBe(403);
  });

  it('proves an agent token by its id without a port, and the local listener leaves that proof to it', async () => {
    const bridge = await remoteBridge();
    const { token, record } = await bridge.context.agentTokens.create('prover', 3_600_000);
    const nonce = randomBytes(18).toString('base64url');
    const answer = await http(`${bridge.remote?.url}/bridge/token-proof?nonce=${nonce}&of=agent&id=${record.id}`);
    expect(answer.body).toEqual({ proof: credentialProof(credentialHash(token), nonce, record.id) });
    const local = await http(`${bridge.url}/bridge/token-proof?nonce=${nonce}&of=agent&id=${record.id}`);
    expect(local).toMatchObject({ status: 400, body: { field: 'id' } });
    const human = await http(`${bridge.remote?.url}/bridge/token-proof?nonce=${nonce}`);
    expect(human.status).toBe(400);
  });
});

describe('pairing codes', () => {
  it('are good for 2 minutes', () => {
    let now = 1_000_000;
    const pairings = new Pairings({
      devices: { add: () => Promise.resolve({ device: { id: 'd', name: 'n', hash: 'h', pairedAt: '' }, token: 't' }) },
      onChange: () => undefined,
      now: () => now,
    });
    const { code } = pairings.openCode();
    now += 2 * 60_000 + 1;
    expect(() => pairings.start(code, 'late phone')).toThrow(/more than 2 minutes old/);
  });
});
