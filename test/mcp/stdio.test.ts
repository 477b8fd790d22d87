import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createBridge } from '../../bridge/bridge.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { waitFor } from '../helpers/wait.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

describe('the stdio shim (aiti-bridge --stdio)', () => {
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

  it('says on stderr that the bridge is down, keeps retrying, and works once it starts', async () => {
    const dataDir = tempDir();
    // find a free port, then leave it free for a while
    const probe = await createBridge({ port: 0, dataDir });
    const port = probe.port;
    await probe.close();
    const shim = spawn(process.execPath, [BIN, '--stdio'], {
      env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: `http://127.0.0.1:${port}`, AITI_LOG: 'warn' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    onCleanup(() => {
      shim.kill();
    });
    let stderr = '';
    let stdout = '';
    shim.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    shim.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    shim.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'early', version: '1' } },
      }) + '\n',
    );
    await waitFor(() => stderr.includes('cannot reach the bridge'), 15_000, 'the stderr line');
    expect(stderr).toContain(`http://127.0.0.1:${port}`);
    expect(stdout).toBe('');
    const bridge = await createBridge({ port, dataDir });
    onCleanup(() => bridge.close());
    await waitFor(() => stdout.includes('"id":1'), 15_000, 'the initialize answer');
    const answer = JSON.parse(stdout.trim().split('\n')[0] ?? '') as { result: { serverInfo: { name: string } } };
    expect(answer.result.serverInfo.name).toBe('aiti-bridge');
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

  it('with --mcp-auth sends the token the bridge requires', async () => {
    const bridge = await startBridge({ mcpAuth: true });
    const client = await connectAgent(bridge.url, { transport: 'stdio', token: bridge.token });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });
});
