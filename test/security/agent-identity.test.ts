import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { InboxResult, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';

/** Issue 16, Medium 6: an MCP caller must not become another agent, read its inbox or answer the human's asks. */

async function pushTo(bridge: Bridge, to: string, text: string): Promise<string> {
  const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to, text } });
  expect(res.status).toBe(200);
  return (res.body as PushAnswer).delivered[0]?.msgId ?? '';
}

/** A stateless SDK client (the session id is dropped) sending the given headers on every request. */
function statelessClient(bridge: Bridge, headers: Record<string, string>): Promise<Client> {
  return connectAgent(bridge.url, { transport: 'stateless', clientName: 'intruder', headers });
}

function inboxOf(result: Awaited<ReturnType<typeof callTool>>): InboxResult {
  return result.structuredContent as InboxResult;
}

describe('agent identity over Streamable HTTP', () => {
  it('refuses aiti_hello with a live agent’s id, and the intruder reads and acks nothing of its inbox', async () => {
    const bridge = await startBridge();
    const alice = await connectAgent(bridge.url, { clientName: 'alice' });
    await callTool(alice, 'aiti_hello');
    const msgId = await pushTo(bridge, 'alice', 'secret plan for alice');

    const mallory = await connectAgent(bridge.url, { clientName: 'mallory' });
    const hello = await callTool(mallory, 'aiti_hello', { agentId: 'alice' });
    expect(hello.isError).toBe(true);
    expect(resultText(hello)).toMatch(/"alice" is in use by a live session/);
    const read = await callTool(mallory, 'aiti_inbox', { ack: [msgId] });
    expect(JSON.stringify(read)).not.toContain('secret plan');
    expect(inboxOf(read).unknownAcks).toEqual([msgId]);
    // alice still has her message, unread and unacked
    const mine = inboxOf(await callTool(alice, 'aiti_inbox'));
    expect(mine.messages.map((m) => m.text)).toEqual(['secret plan for alice']);
  });

  it('refuses an offline agent’s inbox to another client, but gives it back to the same client after a restart', async () => {
    const first = await startBridge();
    const alice = await connectAgent(first.url, { clientName: 'alice' });
    await callTool(alice, 'aiti_hello');
    await pushTo(first, 'alice', 'for alice while away');
    await alice.close();
    await first.close();

    const second = await startBridge({ dataDir: first.context.config.dataDir });
    const mallory = await connectAgent(second.url, { clientName: 'mallory' });
    const taken = await callTool(mallory, 'aiti_hello', { agentId: 'alice' });
    expect(taken.isError).toBe(true);
    expect(resultText(taken)).toMatch(/"alice" has an inbox/);
    expect(JSON.stringify(await callTool(mallory, 'aiti_inbox'))).not.toContain('for alice');

    // the same client (its own name from clientInfo) reconnects and finds its inbox
    const back = await connectAgent(second.url, { clientName: 'alice' });
    const read = inboxOf(await callTool(back, 'aiti_inbox'));
    expect(read.messages.map((m) => m.text)).toEqual(['for alice while away']);
  });

  it('lets a chosen agent id be taken back with the agentKey its first aiti_hello returned', async () => {
    const first = await startBridge();
    const before = await connectAgent(first.url, { clientName: 'some-client' });
    const claimed = (await callTool(before, 'aiti_hello', { agentId: 'frontend-bot' })).structuredContent as {
      agentKey?: string;
    };
    expect(claimed.agentKey).toMatch(/^[\w-]{20,}$/);
    await pushTo(first, 'frontend-bot', 'keep this');
    await before.close();
    await first.close();

    const second = await startBridge({ dataDir: first.context.config.dataDir });
    const other = await connectAgent(second.url, { clientName: 'another-client' });
    expect((await callTool(other, 'aiti_hello', { agentId: 'frontend-bot', agentKey: 'wrong' })).isError).toBe(true);
    const back = await callTool(other, 'aiti_hello', { agentId: 'frontend-bot', agentKey: claimed.agentKey });
    expect(back.isError).toBeFalsy();
    expect(inboxOf(await callTool(other, 'aiti_inbox')).messages.map((m) => m.text)).toEqual(['keep this']);
  });

  it('lets the human’s token take any agent id', async () => {
    const bridge = await startBridge();
    const alice = await connectAgent(bridge.url, { clientName: 'alice' });
    await callTool(alice, 'aiti_hello');
    await pushTo(bridge, 'alice', 'hello alice');
    const human = await connectAgent(bridge.url, { clientName: 'helper', token: bridge.token });
    expect((await callTool(human, 'aiti_hello', { agentId: 'alice' })).isError).toBeFalsy();
  });
});

describe('agent identity over stateless HTTP', () => {
  it('refuses X-Aiti-Agent naming an agent that a session holds', async () => {
    const bridge = await startBridge();
    const alice = await connectAgent(bridge.url, { clientName: 'alice' });
    await callTool(alice, 'aiti_hello');
    const msgId = await pushTo(bridge, 'alice', 'only for alice');

    const raw = await http(`${bridge.url}/mcp/mcp`, {
      headers: { 'x-aiti-agent': 'alice' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'aiti_inbox', arguments: {} } },
    });
    expect(raw.status).toBe(403);
    expect((raw.body as { error: { message: string } }).error.message).toMatch(/"alice" is in use by a live session/);
    expect(JSON.stringify(raw.body)).not.toContain('only for alice');

    const intruder = await statelessClient(bridge, {});
    const hello = await callTool(intruder, 'aiti_hello', { agentId: 'alice' });
    expect(hello.isError).toBe(true);
    const acked = inboxOf(await callTool(intruder, 'aiti_inbox', { ack: [msgId] }));
    expect(acked.unknownAcks).toEqual([msgId]);
    expect(inboxOf(await callTool(alice, 'aiti_inbox')).messages.map((m) => m.id)).toEqual([msgId]);
  });

  it('still lets stateless callers use an id of their own', async () => {
    const bridge = await startBridge();
    const ci = await statelessClient(bridge, { 'x-aiti-agent': 'ci-runner' });
    const status = await callTool(ci, 'bridge_status');
    expect(status.structuredContent).toMatchObject({ you: 'ci-runner' });
    await pushTo(bridge, 'ci-runner', 'for the runner');
    expect(inboxOf(await callTool(ci, 'aiti_inbox')).messages.map((m) => m.text)).toEqual(['for the runner']);
  });
});

describe('--mcp-auth: agents get a token of their own', () => {
  it('writes an agent token (0600) that works on MCP but cannot answer asks or use window routes', async () => {
    const bridge = await startBridge({ mcpAuth: true });
    const file = join(bridge.context.appDir, 'agent-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const agentToken = (await readFile(file, 'utf8')).trim();
    expect(agentToken).not.toBe(bridge.token);

    const agent = await connectAgent(bridge.url, { clientName: 'asker', token: agentToken });
    const asked = await callTool(agent, 'user_confirm', { prompt: 'Deploy?', async: true });
    expect(asked.isError).toBeFalsy();
    const { askId } = asked.structuredContent as { askId: string };

    const answer = await http(`${bridge.url}/bridge/answer`, {
      token: agentToken,
      body: { askId, action: 'answer', value: true },
    });
    expect([401, 403]).toContain(answer.status);
    expect(JSON.stringify(answer.body)).toContain('agent token');
    const sse = await fetch(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(agentToken)}`);
    expect([401, 403]).toContain(sse.status);
    await sse.body?.cancel();
    // the ask is still open: only the human can answer it
    const human = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId, action: 'answer', value: true },
    });
    expect(human.status).toBe(200);
  });

  it('refuses MCP without a token and still takes the human’s', async () => {
    const bridge = await startBridge({ mcpAuth: true });
    const none = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(none.status).toBe(401);
    const human = await http(`${bridge.url}/mcp/mcp`, {
      token: bridge.token,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(human.status).toBe(200);
  });

  it('runs the stdio shim with the agent token from the data dir', async () => {
    // the human's token given on the command line is never written to the data dir: only the agent token is there
    const bridge = await startBridge({ mcpAuth: true, token: 'the-humans-own-token-0123456789' });
    expect(existsSync(join(bridge.context.appDir, 'token'))).toBe(false);
    const shim = await connectAgent(bridge.url, {
      transport: 'stdio',
      clientName: 'shim-agent',
      env: { AITI_MCP_AUTH: '1', AITI_BRIDGE_DATA_DIR: bridge.context.config.dataDir },
    });
    const status = await callTool(shim, 'bridge_status');
    expect(status.structuredContent).toMatchObject({ you: 'shim-agent' });
  });
});
