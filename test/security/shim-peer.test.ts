import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { BIN } from '../helpers/cli.js';
import { startFakeMcpServer } from '../helpers/fake-mcp-server.js';
import { callTool, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Issue 24, Medium 4: the stdio shim trusted whatever answered AITI_BRIDGE_URL. A fake server got the agent token,
 * and its `elicitation/create` ("AITI needs your GitHub password") reached the MCP client; the shim could also
 * send the human's AITI_BRIDGE_TOKEN. The fake server here is a real second process.
 */

/** The official SDK client, declaring elicitation (as Claude Code and VS Code do), on the real shim. */
async function shim(url: string, args: string[], env: Record<string, string> = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--stdio', ...args],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AITI_BRIDGE_URL: url, AITI_LOG: 'warn', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'claude-code', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  const elicited: string[] = [];
  const logged: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    elicited.push(request.params.message);
    return { action: 'accept', content: { password: 'hunter2' } };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logged.push(String(n.params.data)));
  await client.connect(transport);
  onCleanup(() => client.close());
  return { client, elicited, logged, stderr: () => stderr };
}

/** A data dir holding an agent token, as the bridge writes it. */
function dataDirWithAgentToken(agentToken: string): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'aiti-bridge'), { recursive: true });
  writeFileSync(join(dir, 'aiti-bridge', 'agent-token'), `${agentToken}\n`, { mode: 0o600 });
  return dir;
}

describe('the stdio shim and a server that is not the bridge', () => {
  it('with --mcp-auth, sends a fake server no token: it stops and every call says something else answers', async () => {
    const fake = await startFakeMcpServer();
    const agentToken = 'the-agents-token-0123456789';
    const { client, elicited, stderr } = await shim(fake.url, [
      '--mcp-auth',
      '--data-dir',
      dataDirWithAgentToken(agentToken),
    ]);
    const call = await callTool(client, 'bridge_status');
    expect(call.isError).toBe(true);
    expect(resultText(call)).toContain(`something else answers on ${fake.url}, not the AITI bridge`);
    expect(resultText(call)).toContain('it was sent nothing');
    expect(fake.requests().map((r) => r.url.split('?')[0])).toEqual(['/bridge/token-proof']);
    expect(fake.seen()).not.toContain(agentToken);
    expect(elicited).toEqual([]);
    expect(stderr()).toContain('something else answers on');
  });

  it('never passes on what the bridge never sends (elicitation, logging), and answers the server itself', async () => {
    const fake = await startFakeMcpServer();
    const { client, elicited, logged, stderr } = await shim(fake.url, []);
    const call = await callTool(client, 'bridge_status');
    expect(resultText(call)).toBe('done, trust me');
    await waitFor(() => fake.requests().filter((r) => r.body.includes('-32601')).length >= 2, 5000, 'refusals');
    expect(elicited).toEqual([]);
    expect(logged).toEqual([]);
    const refusals = fake.requests().filter((r) => r.body.includes('"error"'));
    expect(refusals.map((r) => (JSON.parse(r.body) as { id: string }).id).sort()).toEqual(
      expect.arrayContaining(['stream-1', expect.stringMatching(/^call-/)]),
    );
    expect(stderr()).toContain('sent "elicitation/create", which the AITI bridge never sends');
  });

  it("never sends the human's token, even when AITI_BRIDGE_TOKEN is set: only the agent token, after a proof", async () => {
    const agentToken = 'the-agents-token-0123456789';
    const humanToken = 'the-humans-token-9876543210';
    // this one proves the agent token like the real bridge: the shim then trusts it, and it sees what it gets
    const fake = await startFakeMcpServer({ agentToken });
    const { client } = await shim(fake.url, ['--mcp-auth', '--data-dir', dataDirWithAgentToken(agentToken)], {
      AITI_BRIDGE_TOKEN: humanToken,
    });
    await callTool(client, 'bridge_status');
    expect(fake.seen()).not.toContain(humanToken);
    const mcp = fake.requests().filter((r) => r.url === '/mcp/mcp');
    expect(mcp.length).toBeGreaterThan(0);
    for (const request of mcp) expect(request.headers.authorization).toBe(`Bearer ${agentToken}`);
    expect(fake.requests()[0]?.url).toMatch(/^\/bridge\/token-proof\?nonce=[\w-]{32}&of=agent$/);
  });
});
