import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { credentialHash, credentialProof } from '../../bridge/credentials.js';
import { Pairings } from '../../bridge/devices/pairing.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { pairDevice, pairingCode, somePublicKey } from '../helpers/device.js';

const remoteBridge = () => startBridge({ remote: { host: '127.0.0.1', port: 0 } });

describe('the remote listener', () => {
  it('a device signs in with a key only its browser holds: the bridge keeps no secret of it, and sets no cookie', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const { token, deviceId, proofKey } = await pairDevice(bridge);
    expect(token).toMatch(new RegExp(`^aiti_device_${deviceId}_[\\w-]{43}$`));
    const own = await http(`${remote}/bridge/whoami`, { token });
    expect(own).toMatchObject({ status: 200, body: { party: 'device', name: 'tablet' } });
    expect(own.headers.get('set-cookie')).toBeNull();
    // the collected device is handed over once
    const again = await http(`${remote}/bridge/pair/status`, { body: { secret: 'x'.repeat(32) } });
    expect(again.body).toEqual({ state: 'expired' });
    // what the bridge keeps signs nobody in: a public key, and the key it proves itself with
    const stored = readFileSync(join(bridge.context.appDir, 'devices.json'), 'utf8');
    expect(stored).toContain(proofKey);
    expect(stored).not.toContain(token.split('_').pop() ?? 'no token');
    // a session the bridge did not open signs nobody in
    expect((await http(`${remote}/bridge/whoami`, { token: `${token.slice(0, -2)}xx` })).status).toBe(401);
  });

  it('a device session works as a bearer, and on the stream in the query, but in no cookie and on no other route', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const { token } = await pairDevice(bridge);
    const asCookie = await http(`${remote}/bridge/sessions`, { headers: { cookie: `aiti_device=${token}` } });
    expect(asCookie.status).toBe(401);
    const inQuery = await http(`${remote}/bridge/sessions?token=${token}`);
    expect(inQuery.status).toBe(401);
    const stream = await fetch(`${remote}/bridge/sse?role=ai&token=${token}`);
    expect(stream.status).toBe(200);
    await stream.body?.cancel();
  });

  it('gives each credential its own party: devices the window, agents MCP, nobody the desk', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const device = await pairDevice(bridge);
    const { token } = await bridge.context.agentTokens.create('far-agent', 3_600_000);
    const deviceOnMcp = await http(`${remote}/mcp/mcp`, { token: device.token, body: '{}' });
    expect(deviceOnMcp.status).toBe(403);
    const agentOnWindow = await http(`${remote}/bridge/answer`, {
      token,
      body: { askId: 'a1', action: 'answer', value: true },
    });
    expect(agentOnWindow.status).toBe(403);
    expect((agentOnWindow.body as { error: string }).error).toContain('agents may not answer asks');
    const deviceOnDesk = await http(`${remote}/bridge/pairing`, { token: device.token, body: {} });
    expect(deviceOnDesk.status).toBe(403);
    expect((deviceOnDesk.body as { error: string }).error).toContain('only the desk window');
  });

  it("a device's name shows its hidden characters on the desk's card: bidi overrides and zero-width spaces reorder nothing", async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    // "Ana's phone" as the human would read it, written with a right-to-left override and a zero-width space
    const name = "Ana's\u200b \u202eenohp\u202c\tlaptop";
    const started = await http(`${remote}/bridge/pair/start`, {
      body: { code: await pairingCode(bridge), name, publicKey: await somePublicKey() },
    });
    expect(started.status).toBe(200);
    const desk = await http(`${bridge.url}/bridge/devices`, { token: bridge.token });
    const shown = (desk.body as { pairings: Array<{ name: string }> }).pairings[0]?.name;
    expect(shown).toBe("Ana's<U+200B> <U+202E>enohp<U+202C> laptop");
    expect(shown).not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
  });

  it('a pairing code is used once; wrong codes are rate-limited, and the right one never is', async () => {
    const bridge = await remoteBridge();
    const remote = bridge.remote?.url ?? '';
    const publicKey = await somePublicKey();
    const value = await pairingCode(bridge);
    expect(Buffer.from(value, 'base64url').length * 8).toBeGreaterThanOrEqual(144);
    expect(
      (await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'first', publicKey } })).status,
    ).toBe(200);
    const reused = await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'racer', publicKey } });
    expect(reused.status).toBe(403);
    const statuses: number[] = [];
    // the used code was the first wrong one of the five the budget takes at once
    for (let i = 0; i < 4; i++) {
      const guess = { code: randomBytes(18).toString('base64url'), name: 'g', publicKey };
      statuses.push((await http(`${remote}/bridge/pair/start`, { body: guess })).status);
    }
    expect(statuses).toEqual([403, 403, 403, 403]);
    const limited = await http(`${remote}/bridge/pair/start`, { body: { code: value, name: 'g', publicKey } });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const fresh = await pairingCode(bridge);
    const right = await http(`${remote}/bridge/pair/start`, { body: { code: fresh, name: 'phone', publicKey } });
    expect(right.status).toBe(200);
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
  it('are good for 2 minutes', async () => {
    let now = 1_000_000;
    const pairings = new Pairings({
      devices: { add: () => Promise.resolve({ id: 'd', name: 'n', pairedAt: '' }) },
      onChange: () => undefined,
      now: () => now,
    });
    const { code } = pairings.openCode();
    now += 2 * 60_000 + 1;
    const key = await somePublicKey();
    expect(() => pairings.start(code, 'late phone', key)).toThrow(/more than 2 minutes old/);
  });
});
