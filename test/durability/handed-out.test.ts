import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { InboxResult, MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Finding 1 of issue 37: a read whose answer never reaches the agent lost its messages — the next aiti_inbox
 * returned 0 of 3 and History said "delivered". Now what was handed out and never acknowledged comes back, with the
 * same ids, on the next read, and History says it was handed out.
 */

async function pushThree(bridge: Bridge): Promise<string[]> {
  const ids: string[] = [];
  for (const text of ['one', 'two', 'three']) {
    const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text } });
    expect(res.status).toBe(200);
    ids.push((res.body as { delivered: Array<{ msgId: string }> }).delivered[0]?.msgId ?? '');
  }
  return ids;
}

/** The read whose answer was lost did reach the bridge: the three are handed out (on disk) now. */
async function handedOut(bridge: Bridge): Promise<void> {
  await waitFor(() => bridge.context.inbox.counts('claude').delivered === 3, 10_000, 'the lost read handed out 3');
}

/** What the agent's next read returns, and what History shows. */
async function nextRead(bridge: Bridge, agent: Client, ids: string[]): Promise<void> {
  const result = await callTool(agent, 'aiti_inbox');
  const inbox = result.structuredContent as InboxResult;
  expect(inbox.messages.map((m) => [m.id, m.text, m.status])).toEqual([
    [ids[0], 'one', 'delivered'],
    [ids[1], 'two', 'delivered'],
    [ids[2], 'three', 'delivered'],
  ]);
  const history = await http(`${bridge.url}/bridge/messages?agentId=claude`, { token: bridge.token });
  expect((history.body as MessagesAnswer).messages.map((m) => m.status)).toEqual([
    'delivered',
    'delivered',
    'delivered',
  ]);
  // acknowledged, they are gone from the next read, and consumed in History
  await callTool(agent, 'aiti_inbox', { ack: ids });
  expect(((await callTool(agent, 'aiti_inbox')).structuredContent as InboxResult).messages).toEqual([]);
}

describe('a read that never reaches the agent (issue 37, finding 1)', () => {
  it('a stateless call whose connection drops before its answer is read: the next read has the same 3 messages', async () => {
    const bridge = await startBridge();
    // a stateless caller speaks for its agent id in a header, every call
    const agent = await connectAgent(bridge.url, { transport: 'stateless', headers: { 'x-aiti-agent': 'claude' } });
    await callTool(agent, 'aiti_inbox');
    const ids = await pushThree(bridge);
    // the agent's HTTP connection is cut as the answer comes: it never reads a byte of it
    await new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'aiti_inbox', arguments: {} },
      });
      const req = request(`${bridge.url}/mcp/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'x-aiti-agent': 'claude',
        },
      });
      req.on('response', (res) => {
        res.destroy();
        resolve();
      });
      req.on('error', reject);
      req.end(body);
    });
    await handedOut(bridge);
    await nextRead(bridge, agent, ids);
  });

  it('a call the SDK client cancels over Streamable HTTP: the next read has the same 3 messages', async () => {
    const bridge = await startBridge();
    const cancel = new AbortController();
    // the client gives up on the call as its answer arrives, before it reads it
    const agent = await connectAgent(bridge.url, {
      clientName: 'claude',
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (typeof init?.body === 'string' && init.body.includes('"tools/call"')) cancel.abort();
        return res;
      },
    });
    const ids = await pushThree(bridge);
    const call = agent.callTool({ name: 'aiti_inbox', arguments: {} }, undefined, { signal: cancel.signal });
    await expect(call).rejects.toThrow();
    await handedOut(bridge);
    await nextRead(bridge, agent, ids);
  });

  it('a call that times out in the SDK client through the stdio shim: the next read has the same 3 messages', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'claude', transport: 'stdio' });
    await callTool(agent, 'aiti_inbox');
    const ids = await pushThree(bridge);
    const call = agent.callTool({ name: 'aiti_inbox', arguments: {} }, undefined, { timeout: 1 });
    await expect(call).rejects.toThrow(/timed out/i);
    await handedOut(bridge);
    await nextRead(bridge, agent, ids);
  });

  it('says what comes back: handed-out messages until acked, and how many more wait', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await callTool(agent, 'aiti_inbox');
    await pushThree(bridge);
    const first = (await callTool(agent, 'aiti_inbox')) as CallToolResult;
    const text = first.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toContain('3 message(s) not acknowledged yet');
    expect(text).toContain('each comes back in every read until you ack it');
    expect(text).not.toMatch(/read but not acked/);
  });
});
