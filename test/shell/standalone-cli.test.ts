import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** dist/cli copied where an installed app puts it (<resources>/aiti-cli), far from any node_modules. */
function installedCli(): string {
  const resources = tempDir();
  cpSync(join(ROOT, 'dist', 'cli'), join(resources, 'aiti-cli'), { recursive: true });
  return join(resources, 'aiti-cli', 'bin', 'aiti-bridge.mjs');
}

describe('the one-file CLI an installed app ships for the stdio shim', () => {
  beforeAll(() => ensureElectronBuilt());

  it('runs on a plain Node without node_modules and knows its version', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(execFileSync(process.execPath, [installedCli(), '--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it('serves an MCP client over stdio, forwarding to the bridge', async () => {
    const bridge = await startBridge();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [installedCli(), '--stdio'],
      env: { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: bridge.url, AITI_LOG: 'warn' },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'shell-test', version: '1.0.0' });
    await client.connect(transport);
    onCleanup(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['bridge_status', 'user_confirm']));
  });
});
