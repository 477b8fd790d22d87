import { describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 38, Low 9: an expired agent token's open GET stream stayed open, and received the human's answer to the ask
 * it had left open; revoking cut it, expiry did not. Now expiry cuts what a token has open, as revoking does.
 */
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('an agent token that expires', () => {
  it('loses its open stream when its time runs out, and the answer to its open ask never reaches it', async () => {
    const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
    const endpoint = `${bridge.remote?.url}/mcp/mcp`;
    const { token } = await bridge.context.agentTokens.create('short-lived', 4000);
    const auth = { authorization: `Bearer ${token}` };
    const init = await fetch(endpoint, {
      method: 'POST',
      headers: { ...MCP_HEADERS, ...auth },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'far', version: '1' } },
      }),
    });
    const session = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const headers = { ...MCP_HEADERS, ...auth, 'mcp-session-id': session };
    await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    }).then((r) => r.text());
    const asked = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'user_confirm', arguments: { prompt: 'Deploy?', async: true } },
      }),
    }).then((r) => r.text());
    expect(asked).toContain('status: open');

    // the GET stream, read as it comes
    const stream = await fetch(endpoint, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    let received = '';
    let ended = false;
    void (async () => {
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>)
          received += Buffer.from(chunk).toString();
      } catch {
        // cut
      }
      ended = true;
    })();

    await waitFor(() => ended, 15_000, 'the stream of the expired token closed');
    const ask = bridge.context.asks.views()[0];
    const answer = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: ask?.askId, action: 'answer', value: true },
    });
    expect(answer.status).toBe(200);
    expect(received).not.toContain('answered');
    const again = await http(endpoint, { headers, body: { jsonrpc: '2.0', id: 3, method: 'tools/list' } });
    expect(again.status).toBe(401);
    expect(JSON.stringify(again.body)).toContain('expired');
  });
});
