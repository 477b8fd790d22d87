import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { STRUCTURED_RESULTS } from '../../bridge/protocol/index.js';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

const ACCEPT = 'application/json, text/event-stream';

/** A raw initialize POST; returns the session id the bridge handed out. */
async function initialize(url: string, clientName = 'raw-client'): Promise<string> {
  const res = await fetch(`${url}/mcp/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: clientName, version: '1' } },
    }),
  });
  expect(res.status).toBe(200);
  const sessionId = res.headers.get('mcp-session-id');
  await res.body?.cancel();
  expect(sessionId).toBeTruthy();
  return sessionId ?? '';
}

function sessionHeaders(sessionId: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: ACCEPT,
    'mcp-session-id': sessionId,
    'mcp-protocol-version': '2025-06-18',
  };
}

describe('Streamable HTTP sessions', () => {
  it('lists the tools and calls one over a session with the SDK client', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, { clientName: 'Claude Code' });
    const { tools } = await client.listTools();
    const status = tools.find((t) => t.name === 'bridge_status');
    expect(status?.title).toBe('Bridge status');
    const result = await callTool(client, 'bridge_status');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ version: bridge.context.version, you: 'claude-code' });
    // the text is written for a model: the summary, then plain lines (no JSON); programs read structuredContent
    const lines = resultText(result).split('\n');
    expect(lines[0]).toMatch(/^0 page\(s\) to drive: none; 1 agent\(s\) online; 0 open ask\(s\)$/);
    expect(lines).toContain('you: claude-code');
    expect(resultText(result)).not.toMatch(/[{}]/);
  });

  it('serves the endpoint under /aiti too', async () => {
    const bridge = await startBridge();
    const res = await fetch(`${bridge.url}/aiti/mcp/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { tools: Array<{ name: string }> } };
    expect(body.result.tools.map((t) => t.name)).toContain('bridge_status');
  });

  it('answers 404 for an unknown session id', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      headers: sessionHeaders('no-such-session'),
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      error: { message: expect.stringContaining('MCP session "no-such-session" is not known') },
    });
  });

  it('accepts a notification with 202 and no body', async () => {
    const bridge = await startBridge();
    const sessionId = await initialize(bridge.url);
    const res = await fetch(`${bridge.url}/mcp/mcp`, {
      method: 'POST',
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('marks the agent offline in bridge_status when its GET stream closes, and ends the session', async () => {
    const bridge = await startBridge();
    const sessionId = await initialize(bridge.url, 'stream-owner');
    const stream = new AbortController();
    const get = await fetch(`${bridge.url}/mcp/mcp`, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      signal: stream.signal,
    });
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toContain('text/event-stream');

    const observer = await connectAgent(bridge.url, { clientName: 'observer' });
    const online = await callTool(observer, 'bridge_status');
    expect(online.structuredContent).toMatchObject({
      agents: { online: expect.arrayContaining([expect.objectContaining({ agentId: 'stream-owner' })]) },
    });

    stream.abort();
    await waitFor(
      async () => {
        const status = await callTool(observer, 'bridge_status');
        const offline = (status.structuredContent as { agents: { offline: Array<{ agentId: string }> } }).agents
          .offline;
        return offline.some((a) => a.agentId === 'stream-owner');
      },
      5000,
      'stream-owner offline',
    );

    const after = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      headers: sessionHeaders(sessionId),
    });
    expect(after.status).toBe(404);
  });

  it('keeps the GET stream alive with a ping at the configured interval', async () => {
    const bridge = await startBridge({ pingMs: 100 });
    const sessionId = await initialize(bridge.url);
    const stream = new AbortController();
    onCleanup(() => stream.abort());
    const get = await fetch(`${bridge.url}/mcp/mcp`, {
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      signal: stream.signal,
    });
    const reader = get.body?.getReader();
    let seen = '';
    while (reader && !seen.includes(': keepalive')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value);
    }
    expect(seen).toContain(': keepalive');
  });

  it('delivers a server→client message on the GET stream', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, {
      clientName: 'channel-client',
      capabilities: { experimental: { 'claude/channel': {} } },
    });
    const received: unknown[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      received.push(notification);
    };
    await waitFor(
      () =>
        Boolean(
          bridge.context.agents.get('channel-client') &&
          [...(bridge.context.agents.get('channel-client')?.links.values() ?? [])].some((l) => l.channel),
        ),
      5000,
      'the channel link',
    );
    const agent = bridge.context.agents.get('channel-client');
    const link = [...(agent?.links.values() ?? [])].find((l) => l.channel);
    await link?.channel?.({
      id: 'm1',
      kind: 'user_message',
      from: 'window',
      agentId: 'channel-client',
      text: 'please use the blue button',
      at: new Date().toISOString(),
      status: 'pending',
    });
    await waitFor(() => received.length > 0, 5000, 'the channel notification');
    expect(received[0]).toMatchObject({
      method: 'notifications/claude/channel',
      params: {
        content: expect.stringContaining('please use the blue button'),
        meta: { msg_id: 'm1', kind: 'user_message' },
      },
    });
  });
});

describe('stateless calls', () => {
  it('answers a plain JSON POST at once, without a session', async () => {
    const bridge = await startBridge();
    const res = await fetch(`${bridge.url}/mcp/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'bridge_status', arguments: {}, _meta: { [STRUCTURED_RESULTS]: true } },
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const body = (await res.json()) as { id: number; result: { structuredContent: { you: string } } };
    expect(body.id).toBe(1);
    expect(body.result.structuredContent.you).toBe('stateless');
  });

  it('speaks for the agent named in X-Aiti-Agent', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/mcp/mcp`, {
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'bridge_status', arguments: {}, _meta: { [STRUCTURED_RESULTS]: true } },
      },
      headers: { 'x-aiti-agent': 'ci-runner' },
    });
    expect(res.body).toMatchObject({ result: { structuredContent: { you: 'ci-runner' } } });
  });

  it('names the bad field when an argument is wrong', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, { transport: 'stateless' });
    const result = await callTool(client, 'file_stat', { path: 42 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('field "path"');
    expect(result.structuredContent).toMatchObject({ field: 'path' });
  });
});

describe('sessions and agents', () => {
  it('a client that drops the session id never shows as a session agent', async () => {
    const bridge = await startBridge();
    const stateless = await connectAgent(bridge.url, { transport: 'stateless', clientName: 'forgetful' });
    await callTool(stateless, 'bridge_status');
    const observer = await connectAgent(bridge.url, { clientName: 'observer' });
    const status = await callTool(observer, 'bridge_status');
    const agents = (status.structuredContent as { agents: Record<'online' | 'offline', Array<{ agentId: string }>> })
      .agents;
    expect(agents.online.map((a) => a.agentId)).toEqual(['observer']);
    expect(agents.offline.map((a) => a.agentId)).not.toContain('forgetful');
  });

  it('ends a session that never opened a GET stream after the TTL without requests', async () => {
    // long enough that a busy machine gets the second request in before the TTL ends the session
    const bridge = await startBridge({ ttlMs: 1500 });
    const sessionId = await initialize(bridge.url, 'idler');
    const first = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
      headers: sessionHeaders(sessionId),
    });
    expect(first.status).toBe(202);
    expect(bridge.context.agents.get('idler')?.links.size).toBe(1);
    await waitFor(() => bridge.context.agents.get('idler')?.links.size !== 1, 5000, 'the idle session to end');
    const later = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 4, method: 'tools/list' },
      headers: sessionHeaders(sessionId),
    });
    expect(later.status).toBe(404);
  });

  it('answers a tool that does not exist with JSON-RPC -32602 naming the tools, and stays usable', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url);
    const refused = client.callTool({ name: 'page_click', arguments: {} });
    await expect(refused).rejects.toBeInstanceOf(McpError);
    await expect(refused).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    // what the client shows: the code once, then the bridge's words
    await expect(refused).rejects.toThrow(/^MCP error -32602: unknown tool "page_click"; the tools are: page_exec/);
    const typo = client.callTool({ name: 'bridge_stats', arguments: {} });
    await expect(typo).rejects.toThrow('unknown tool "bridge_stats" (did you mean "bridge_status"?)');
    expect((await callTool(client, 'bridge_status')).isError).toBeFalsy();
  });

  it('answers a stateless call of an unknown tool with a JSON-RPC error -32602, not a tool result', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'nope', arguments: {} } },
      headers: { accept: ACCEPT },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32602 } });
    // the message on the wire is the bridge's own words: the client puts "MCP error -32602: " before it
    expect((res.body as { error: { message: string } }).error.message).toMatch(/^unknown tool "nope"; the tools are:/);
    expect(res.body).not.toHaveProperty('result');
  });
});

describe('MCP endpoint trust', () => {
  it('refuses a cross-origin browser POST', async () => {
    const bridge = await startBridge();
    const res = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { origin: 'http://localhost:3000', accept: ACCEPT },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: expect.stringContaining('browser origin "http://localhost:3000"') });
  });

  it('with --mcp-auth, answers 401 without the token and serves with it', async () => {
    const bridge = await startBridge({ mcpAuth: true });
    const res = await http(`${bridge.url}/mcp/mcp`, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: ACCEPT },
    });
    expect(res.status).toBe(401);
    const client = await connectAgent(bridge.url, { token: bridge.token });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
