import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../bridge/config.js';
import { spawn } from 'node:child_process';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { BIN, cli, eachLine } from '../helpers/cli.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { squat } from '../helpers/squatter.js';
import { waitFor } from '../helpers/wait.js';

const tokenOf = (stdout: string) => /^\s+(aiti_agent_\S+)$/m.exec(stdout)?.[1] ?? '';

describe('aiti-bridge agent-token', () => {
  it('create prints the token once and what to paste into each client; the file keeps only its hash, 0600', async () => {
    const dataDir = tempDir();
    const made = await cli(['agent-token', 'create', 'devbox', '--expires', '7d', '--data-dir', dataDir], {});
    expect(made.code, made.stderr).toBe(0);
    const token = tokenOf(made.stdout);
    expect(token).toMatch(/^aiti_agent_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    // the token is printed once, for the human to copy; no line to paste or run carries it (argv, history, a
    // workspace file), and every client goes through the shim, which proves the bridge before sending it
    expect(made.stdout.split(token)).toHaveLength(2);
    expect(made.stdout).toContain('npx -y @aiti-ai/aiti-bridge agent-token save');
    expect(made.stdout).toContain(
      'claude mcp add aiti --scope user --env AITI_BRIDGE_URL=http://127.0.0.1:8778 --env AITI_MCP_AUTH=1 -- npx -y @aiti-ai/aiti-bridge --stdio',
    );
    expect(made.stdout).toContain('AITI_MCP_AUTH = "1"');
    for (const client of ['Cursor', 'VS Code', 'Gemini CLI']) expect(made.stdout).toContain(client);
    expect(made.stdout).toContain('"type": "stdio"');
    expect(made.stdout).not.toMatch(/--header|Authorization|bearer_token_env_var/);
    expect(made.stdout).toContain(
      'AITI_BRIDGE_URL=http://127.0.0.1:8778 AITI_MCP_AUTH=1 npx -y @aiti-ai/aiti-bridge --stdio',
    );
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
    expect(made.stdout).toContain(`AITI_BRIDGE_URL=${bridge.remote?.url}`);
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

  it("the agent's machine saves the token from standard input; the shim sends it only to a bridge that proves it holds it", async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir, remote: { host: '127.0.0.1', port: 0 } });
    const made = await cli(['agent-token', 'create', 'devbox', '--data-dir', dataDir], {});
    const token = tokenOf(made.stdout);
    // on the agent's machine, as the first setup line says: the token goes in on standard input, never in argv
    const agentDir = tempDir();
    const saved = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'agent-token', 'save', '--data-dir', agentDir], {
        env: { PATH: process.env.PATH ?? '' },
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.on('exit', (code) => resolve({ code, out }));
      child.stdin.end(`${token}\n`);
    });
    expect(saved.code).toBe(0);
    const file = join(agentDir, 'aiti-bridge', 'agent-token');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(token);
    // the client runs the shim as the setup lines say: URL and AITI_MCP_AUTH=1, no token anywhere in its config
    const env = { AITI_MCP_AUTH: '1', AITI_BRIDGE_DATA_DIR: agentDir };
    const agent = await connectAgent(bridge.remote?.url ?? '', { transport: 'stdio', env });
    expect((await callTool(agent, 'aiti_hello')).structuredContent).toMatchObject({ agentId: 'devbox' });
    // whatever took the tunnel's port instead gets no token: the shim asked it for the proof first
    const squatter = await squat({ port: 0 });
    const port = squatter.port();
    const lost = connectAgent(`http://127.0.0.1:${port}`, { transport: 'stdio', env }).catch((e: Error) => e);
    await squatter.waitForRequest('/bridge/token-proof');
    await lost;
    expect(squatter.seen()).not.toContain(token.slice(28));
    expect(squatter.requests().every((r) => r.headers.authorization === undefined)).toBe(true);
  });

  it("refuses a name a local agent already has, unless --take-over: a token would read that agent's inbox", async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir, remote: { host: '127.0.0.1', port: 0 } });
    await connectAgent(bridge.url, { clientName: 'claude-code' });
    const cliRefused = await cli(['agent-token', 'create', 'claude-code', '--data-dir', dataDir], {});
    expect(cliRefused.code).toBe(1);
    expect(cliRefused.stderr).toContain('"claude-code" is an agent this bridge knows');
    expect(cliRefused.stderr).toContain('--take-over');
    const deskRefused = await http(`${bridge.url}/bridge/agent-tokens`, {
      token: bridge.token,
      body: { name: 'claude-code' },
    });
    expect(deskRefused.status).toBe(409);
    expect(bridge.context.agentTokens.list()).toEqual([]);
    const meant = await http(`${bridge.url}/bridge/agent-tokens`, {
      token: bridge.token,
      body: { name: 'claude-code', takeOver: true },
    });
    expect(meant.status).toBe(200);
  });

  it('refuses a bad name, a bad expiry and an unknown command with what to do', async () => {
    const dataDir = tempDir();
    const name = await cli(['agent-token', 'create', '../evil', '--data-dir', dataDir], {});
    expect(name.stderr).toContain('plain agent id');
    const expiry = await cli(['agent-token', 'create', 'ok', '--expires', 'soon', '--data-dir', dataDir], {});
    expect(expiry.stderr).toContain('--expires must be');
    const unknown = await cli(['agent-token', 'rotate', '--data-dir', dataDir], {});
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('create, list, revoke or save');
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
    expect(() => resolveConfig([], { AITI_NOTIFY: 'ntfy.sh/topic' })).toThrow(/AITI_NOTIFY must be an http/);
  });
});
