import { describe, expect, it } from 'vitest';
import { createBridge } from '../../bridge/bridge.js';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';

const ACCEPT = 'application/json, text/event-stream';

/** A bridge with its remote listener, on this data dir, closed after the test. */
async function remoteBridge(dataDir: string) {
  const bridge = await createBridge({ port: 0, dataDir, remote: { host: '127.0.0.1', port: 0 } });
  onCleanup(() => bridge.close());
  return bridge;
}

describe('a Streamable HTTP session an agent token opened, after a restart', () => {
  it('comes back for that token only: another token holding its id is refused', async () => {
    const dataDir = tempDir();
    const first = await remoteBridge(dataDir);
    const { token } = await first.context.agentTokens.create('alpha', 3_600_000);
    const { token: other } = await first.context.agentTokens.create('beta', 3_600_000);
    const init = await fetch(`${first.remote?.url ?? ''}/mcp/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'far', version: '1' } },
      }),
    });
    await init.body?.cancel();
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    expect(sessionId).not.toBe('');
    await first.close();

    const second = await remoteBridge(dataDir);
    const remote = second.remote?.url ?? '';
    const call = (bearer: string) =>
      http(`${remote}/mcp/mcp`, {
        token: bearer,
        headers: { 'mcp-session-id': sessionId, accept: ACCEPT },
        body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
      });
    const hijack = await call(other);
    expect(hijack.status).toBe(403);
    expect(JSON.stringify(hijack.body)).toContain('belongs to another agent');
    const own = await call(token);
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain('alpha');
  });
});
