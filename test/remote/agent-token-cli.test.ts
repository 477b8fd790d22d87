import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../bridge/config.js';
import { spawn } from 'node:child_process';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { BIN, cli, eachLine } from '../helpers/cli.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

const tokenOf = (stdout: string) => /AITI_AGENT_TOKEN=(aiti_agent_\S+)/.exec(stdout)?.[1] ?? '';

describe('aiti-bridge agent-token', () => {
  it('create prints the token once and what to paste into each client; the file keeps only its hash, 0600', async () => {
    const dataDir = tempDir();
    const made = await cli(['agent-token', 'create', 'devbox', '--expires', '7d', '--data-dir', dataDir], {});
    expect(made.code, made.stderr).toBe(0);
    const token = tokenOf(made.stdout);
    expect(token).toMatch(/^aiti_agent_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const endpoint = 'http://127.0.0.1:8778/mcp/mcp';
    expect(made.stdout).toContain(
      `claude mcp add --transport http aiti ${endpoint} --header "Authorization: Bearer ${token}"`,
    );
    expect(made.stdout).toContain('bearer_token_env_var = "AITI_AGENT_TOKEN"');
    for (const client of ['Cursor', 'VS Code', 'Gemini CLI']) expect(made.stdout).toContain(client);
    expect(made.stdout).toContain('"httpUrl"');
    expect(made.stdout).toContain(`AITI_BRIDGE_URL=http://127.0.0.1:8778 AITI_AGENT_TOKEN=${token}`);
    expect(made.stdout).toContain('--remote 8778');

    const file = join(dataDir, 'aiti-bridge', 'agent-tokens.jsonl');
    expect(readFileSync(file, 'utf8')).not.toContain(token.slice(28));
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const again = await cli(['agent-token', 'create', 'devbox', '--data-dir', dataDir], {});
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('agent "devbox" has a token already');

    const list = await cli(['agent-token', 'list', '--data-dir', dataDir], {});
    expect(list.stdout).toMatch(/^devbox\s+[0-9a-f]{16}\s+made \S+\s+expires \S+\s+never used\n$/);
    expect(list.stdout).not.toContain(token);
  });

  it('revoke from the terminal cuts a running bridge off the token at once', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir, remote: { host: '127.0.0.1', port: 0 } });
    const made = await cli(
      ['agent-token', 'create', 'laptop-agent', '--url', bridge.remote?.url ?? '', '--data-dir', dataDir],
      {},
    );
    const token = tokenOf(made.stdout);
    expect(made.stdout).toContain(`${bridge.remote?.url}/mcp/mcp`);
    const agent = await connectAgent(bridge.remote?.url ?? '', { clientName: 'whatever', token });
    expect((await callTool(agent, 'aiti_hello')).structuredContent).toMatchObject({ agentId: 'laptop-agent' });

    const revoked = await cli(['agent-token', 'revoke', 'laptop-agent', '--data-dir', dataDir], {});
    expect(revoked.stdout).toMatch(/^revoked laptop-agent \([0-9a-f]{16}\)\n$/);
    await waitFor(
      () => {
        const known = bridge.context.agents.get('laptop-agent');
        return Boolean(known && !bridge.context.agents.isOnline(known));
      },
      5000,
      'laptop-agent offline once revoked, before any request of its own',
    );
    const refused = await http(`${bridge.remote?.url}/mcp/mcp`, { token, body: '{}' });
    expect(refused.status).toBe(401);
    const none = await cli(['agent-token', 'revoke', 'laptop-agent', '--data-dir', dataDir], {});
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no agent token named "laptop-agent"');
  });

  it('refuses a bad name, a bad expiry and an unknown command with what to do', async () => {
    const dataDir = tempDir();
    const name = await cli(['agent-token', 'create', '../evil', '--data-dir', dataDir], {});
    expect(name.stderr).toContain('plain agent id');
    const expiry = await cli(['agent-token', 'create', 'ok', '--expires', 'soon', '--data-dir', dataDir], {});
    expect(expiry.stderr).toContain('--expires must be');
    const unknown = await cli(['agent-token', 'rotate', '--data-dir', dataDir], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('create, list or revoke');
  });
});

describe('a shared machine', () => {
  it('asks agents for the token by default where SSH_CONNECTION, CODESPACES or REMOTE_CONTAINERS is set', () => {
    expect(resolveConfig([], {}).mcpAuth).toBe(false);
    for (const name of ['SSH_CONNECTION', 'CODESPACES', 'REMOTE_CONTAINERS'])
      expect(resolveConfig([], { [name]: '10.0.0.2 52000 10.0.0.1 22' }).mcpAuth, name).toBe(true);
    expect(resolveConfig(['--mcp-auth=false'], { SSH_CONNECTION: 'x' }).mcpAuth).toBe(false);
    expect(resolveConfig([], { SSH_CONNECTION: 'x', AITI_MCP_AUTH: '0' }).mcpAuth).toBe(false);
  });

  it('the bridge started there says why at start and refuses an agent without the token', async () => {
    const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', tempDir()], {
      env: { PATH: process.env.PATH ?? '', AITI_LOG: 'warn', SSH_CONNECTION: '10.0.0.2 52000 10.0.0.1 22' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    onCleanup(() => void child.kill('SIGTERM'));
    const lines: string[] = [];
    eachLine(child.stderr, (line) => lines.push(line));
    await waitFor(() => lines.some((l) => l.includes('MCP asks for the agent token')), 15_000, 'the start lines');
    expect(lines.join('\n')).toContain('SSH_CONNECTION is set');
    const url = /listening on (http:\/\/\S+)/.exec(lines.join('\n'))?.[1] ?? '';
    const bare = await http(`${url}/mcp/mcp`, { body: '{}' });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toBe('Bearer realm="aiti-bridge"');
  });
});

describe('--remote', () => {
  it('takes [HOST:]PORT and refuses anything else by name', () => {
    expect(resolveConfig(['--remote', '8778'], {}).remote).toEqual({ host: '127.0.0.1', port: 8778 });
    expect(resolveConfig(['--remote', '0.0.0.0:8778'], {}).remote).toEqual({ host: '0.0.0.0', port: 8778 });
    expect(resolveConfig([], { AITI_REMOTE: '[::]:9000' }).remote).toEqual({ host: '::', port: 9000 });
    expect(() => resolveConfig(['--remote', 'laptop'], {})).toThrow(/--remote must be \[HOST:\]PORT/);
    expect(() => resolveConfig(['--notify', 'ntfy.sh/topic'], {})).toThrow(/--notify must be an http/);
  });
});
