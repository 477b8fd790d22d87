import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { onCleanup, tempDir } from '../helpers/bridge.js';
import { spawnBridge } from '../helpers/child-bridge.js';
import { BIN, cli } from '../helpers/cli.js';

/**
 * Issue 41, finding 2: with a bridge on `--data-dir X --remote 19579`, `agent-token create` wrote the token into the
 * default data dir (401 "unknown agent token" on the remote listener) and printed lines for port 8778. Now it reads
 * the running bridge's record in the data dir, and the lines it prints work as printed.
 */
const PATH = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
/** What the printed note says to write while the package is not on npm. */
const unpublished = (line: string) => line.replaceAll('npx -y @aiti-ai/aiti-bridge', `node ${BIN}`);

/** The indented lines under the heading that starts with `heading`. */
function block(stdout: string, heading: string): string {
  const lines = stdout.split('\n');
  const at = lines.findIndex((line) => line.startsWith(heading));
  if (at < 0) throw new Error(`no "${heading}" in:\n${stdout}`);
  const body: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith('  ')) break;
    body.push(line.slice(2));
  }
  return body.join('\n');
}

function sh(line: string, env: Record<string, string>, stdin: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], { env: { PATH, ...env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => resolve({ code, out }));
    child.stdin.end(stdin);
  });
}

describe('agent-token create against a running bridge with its own data dir and remote port', () => {
  it('prints the remote listener it really has, and the lines work as printed over it', async () => {
    const dataDir = tempDir();
    const bridge = await spawnBridge(dataDir, { args: ['--remote', '0'] });
    const remote = /remote:\s+(http:\/\/\S+)/.exec(bridge.stderr())?.[1] ?? '';
    expect(remote).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const made = await cli(['agent-token', 'create', 'devbox'], { AITI_BRIDGE_DATA_DIR: dataDir });
    expect(made.stderr).toBe('');
    expect(made.stdout).toContain(`has its remote listener at ${remote}; the lines below use it.`);
    expect(made.stdout).not.toContain('8778');
    const token = /^\s+(aiti_agent_\S+)$/m.exec(made.stdout)?.[1] ?? '';

    // the agent's machine: its own home, the lines pasted as printed (with the package from a clone meanwhile)
    const agentHome = tempDir('aiti-agent-home-');
    const save = block(made.stdout, "First, on the agent's machine");
    const saved = await sh(unpublished(save), { XDG_CONFIG_HOME: agentHome }, `${token}\n`);
    expect(saved.out).toContain('saved to');
    expect(saved.code).toBe(0);
    expect(existsSync(join(agentHome, 'aiti-bridge', 'agent-token'))).toBe(true);

    const shim = block(made.stdout, 'Any stdio client');
    expect(shim).toBe(`AITI_BRIDGE_URL=${remote} AITI_MCP_AUTH=1 npx -y @aiti-ai/aiti-bridge --stdio`);
    const client = new Client({ name: 'some-client', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: 'sh',
        args: ['-c', unpublished(shim)],
        env: { PATH, HOME: agentHome, XDG_CONFIG_HOME: agentHome, AITI_LOG: 'warn' },
      }),
    );
    onCleanup(() => client.close());
    const hello = await client.callTool({ name: 'aiti_hello', arguments: {} });
    expect(hello.isError).toBeFalsy();
    expect(JSON.stringify(hello.content)).toContain('devbox');
  });

  it('refuses, naming the data dir, when it is pointed at a bridge whose data dir it is not', async () => {
    const dataDir = tempDir();
    const bridge = await spawnBridge(dataDir, { args: ['--remote', '0'] });
    const elsewhere = tempDir();
    const made = await cli(['agent-token', 'create', 'foo'], {
      XDG_CONFIG_HOME: elsewhere,
      AITI_BRIDGE_PORT: String(bridge.port),
    });
    expect(made.code).toBe(2);
    expect(made.stderr).toContain(
      `the bridge on port ${bridge.port} does not use the data dir ${elsewhere} (no bridge runs there: no ${join(elsewhere, 'aiti-bridge', 'running.json')})`,
    );
    expect(made.stderr).toContain("give that bridge's own --data-dir (or AITI_BRIDGE_DATA_DIR)");
    expect(existsSync(join(elsewhere, 'aiti-bridge', 'agent-tokens.jsonl'))).toBe(false);
  });
});
