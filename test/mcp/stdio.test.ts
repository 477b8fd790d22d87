import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { STRUCTURED_RESULTS } from '../../bridge/protocol/index.js';
import { createBridge } from '../../bridge/bridge.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { waitFor } from '../helpers/wait.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

/** A port nothing listens on: a bridge is started on it and closed, so it was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = await createBridge({ port: 0, dataDir: tempDir() });
  await probe.close();
  return probe.port;
}

/** The official SDK client on the shim (`aiti-bridge --stdio`) pointed at `url`; stderr kept for reading. */
async function shimClient(url: string, name: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--stdio'],
    env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: url, AITI_LOG: 'warn' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // a program reading results' JSON, as the tests do
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { experimental: { [STRUCTURED_RESULTS]: {} } } },
  );
  await client.connect(transport);
  onCleanup(() => client.close());
  return { client, stderr: () => stderr };
}

describe('the stdio shim (aiti-bridge --stdio)', () => {
  it("relays an unknown tool's JSON-RPC error so the client reads its code once", async () => {
    const bridge = await startBridge();
    const { client } = await shimClient(bridge.url, 'typo-agent');
    await expect(client.callTool({ name: 'bridge_stats', arguments: {} })).rejects.toThrow(
      /^MCP error -32602: unknown tool "bridge_stats" \(did you mean "bridge_status"\?\); the tools are: /,
    );
  });

  it('forwards tools/list and tool calls to the bridge, and the agent shows as stdio', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, { handler: () => ({ clicked: true }) });
    const client = await connectAgent(bridge.url, { transport: 'stdio', clientName: 'claude-code' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['page_exec', 'bridge_status', 'file_stat']));
    const click = await callTool(client, 'page_exec', { cmd: 'Input.click', args: { target: 'e3' } });
    expect(click.structuredContent).toMatchObject({ pageId: page.pageId, result: { clicked: true } });
    const bad = await callTool(client, 'page_exec', { cmd: 'Input.click', args: {} });
    expect(resultText(bad)).toContain('field "target"');
    const status = await callTool(client, 'bridge_status');
    expect(status.structuredContent).toMatchObject({
      you: 'claude-code',
      agents: { online: [expect.objectContaining({ agentId: 'claude-code', transport: 'stdio' })] },
    });
  });

  it('does not hold other calls behind a slow one', async () => {
    const bridge = await startBridge();
    let release: () => void = () => undefined;
    await ScriptedPage.connect(bridge.url, {
      handler: (cmd) =>
        cmd === 'Page.waitFor' ? new Promise((resolve) => (release = () => resolve({ found: true }))) : { ok: true },
    });
    const client = await connectAgent(bridge.url, { transport: 'stdio', clientName: 'busy' });
    const cancel = new AbortController();
    const slow = client.callTool(
      { name: 'page_exec', arguments: { cmd: 'Page.waitFor', args: { text: 'never' } } },
      undefined,
      {
        signal: cancel.signal,
      },
    );
    await waitFor(() => bridge.context.requests.size === 1, 10_000, 'the slow command to reach the page');
    const quick = await callTool(client, 'bridge_status');
    expect(quick.isError).toBeFalsy();
    cancel.abort();
    await expect(slow).rejects.toThrow();
    release();
  });

  it('carries server→client requests back to the client (sampling)', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, {
      transport: 'stdio',
      clientName: 'sampler',
      capabilities: { sampling: {} },
    });
    const prompts: string[] = [];
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      prompts.push(JSON.stringify(request.params.messages));
      return { role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'test' };
    });
    await callTool(client, 'bridge_status');
    await waitFor(
      () => [...(bridge.context.agents.get('sampler')?.links.values() ?? [])].some((l) => l.sampling),
      10_000,
      'the sampling link',
    );
    const link = [...(bridge.context.agents.get('sampler')?.links.values() ?? [])].find((l) => l.sampling);
    await link?.sampling?.({
      id: 'm7',
      kind: 'user_message',
      from: 'window',
      agentId: 'sampler',
      text: 'the header is too tall',
      at: new Date().toISOString(),
      status: 'pending',
    });
    expect(prompts[0]).toContain('the header is too tall');
  });

  it('marks the agent offline when the client closes the shim', async () => {
    const bridge = await startBridge();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, '--stdio'],
      env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: bridge.url, AITI_LOG: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'leaver', version: '1' });
    await client.connect(transport);
    await callTool(client, 'bridge_status');
    expect(bridge.context.agents.get('leaver')?.links.size).toBe(1);
    await client.close();
    await waitFor(() => bridge.context.agents.get('leaver')?.links.size === 0, 10_000, 'leaver offline');
  });

  it('with no bridge running, answers initialize and tools/list at once, and a call says how to start one', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const { client, stderr } = await shimClient(url, 'early-bird');
    expect(client.getServerVersion()).toMatchObject({ name: 'aiti-bridge' });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['page_exec', 'bridge_status', 'user_confirm']));
    const call = await callTool(client, 'bridge_status');
    expect(call.isError).toBe(true);
    expect(resultText(call)).toContain(`The AITI bridge is not running at ${url}`);
    expect(resultText(call)).toContain('npx @aiti-ai/aiti-bridge');
    expect(resultText(call)).toContain('AITI_BRIDGE_URL');
    await waitFor(() => stderr().includes('cannot reach the bridge'), 10_000, 'the stderr line');
    expect(stderr()).toContain(url);
  });

  it('connects to a bridge that starts later without the client noticing, under the client name', async () => {
    const port = await freePort();
    const { client } = await shimClient(`http://127.0.0.1:${port}`, 'late-riser');
    expect((await callTool(client, 'bridge_status')).isError).toBe(true);
    const bridge = await createBridge({ port, dataDir: tempDir() });
    onCleanup(() => bridge.close());
    const status = await callTool(client, 'bridge_status');
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({
      you: 'late-riser',
      agents: { online: [expect.objectContaining({ agentId: 'late-riser', transport: 'stdio' })] },
    });
  });

  it('lists, with no bridge, the very tools this version of the bridge lists', async () => {
    const { client: offline } = await shimClient(`http://127.0.0.1:${await freePort()}`, 'offline');
    const bridge = await startBridge();
    const direct = await connectAgent(bridge.url, { clientName: 'direct' });
    expect((await offline.listTools()).tools).toEqual((await direct.listTools()).tools);
  });

  it('opens a new session by itself after the bridge restarts', async () => {
    const dataDir = tempDir();
    const first = await createBridge({ port: 0, dataDir });
    const port = first.port;
    const client = await connectAgent(first.url, { transport: 'stdio', clientName: 'survivor' });
    expect((await callTool(client, 'bridge_status')).isError).toBeFalsy();
    await first.close();
    const second = await createBridge({ port, dataDir });
    onCleanup(() => second.close());
    const after = await callTool(client, 'bridge_status');
    expect(after.isError).toBeFalsy();
    expect(after.structuredContent).toMatchObject({ you: 'survivor' });
  });

  it('with --mcp-auth sends the agent token the bridge requires', async () => {
    const bridge = await startBridge({ mcpAuth: true });
    const client = await connectAgent(bridge.url, { transport: 'stdio', token: bridge.context.agentToken });
    expect((await callTool(client, 'bridge_status')).isError).toBeFalsy();
  });
});
