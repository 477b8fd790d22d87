import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerShim } from '../../bridge/register/register.js';
import { registerWithClients, shimForApp, type ShimReport } from '../../electron/register.js';
import { tempDir } from '../helpers/bridge.js';

const SHIM = { command: '/usr/bin/node', args: ['/src/aiti/bin/aiti-bridge.js', '--stdio'] };
const MCP = 'http://127.0.0.1:8777/mcp/mcp';
const reporting = (clients: ShimReport['clients']) => () => ({ clients });

describe('"Register with MCP clients" from the tray', () => {
  it('registers the shim of a checkout: Node running its bin/aiti-bridge.js --stdio', () => {
    const root = tempDir();
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin', 'aiti-bridge.js'), '');
    expect(shimForApp(root, { npm_node_execpath: '/opt/node/bin/node' })).toEqual({
      command: '/opt/node/bin/node',
      args: [join(root, 'bin', 'aiti-bridge.js'), '--stdio'],
    });
    expect(shimForApp(root, {})?.command).toBe('node');
  });

  it('registers the one-file CLI an installed app ships in its resources, run by the Node on PATH', async () => {
    const resources = tempDir();
    const asar = join(resources, 'app.asar');
    expect(shimForApp(asar, {}, resources)).toBeUndefined();
    await expect(
      registerWithClients({ registerShim: reporting([]), home: '/home/me', shim: undefined, mcpUrl: MCP }),
    ).rejects.toThrow(`add ${MCP} to your MCP client as a Streamable HTTP server instead`);

    mkdirSync(join(resources, 'aiti-cli', 'bin'), { recursive: true });
    writeFileSync(join(resources, 'aiti-cli', 'bin', 'aiti-bridge.mjs'), '');
    expect(shimForApp(asar, {}, resources)).toEqual({
      command: 'node',
      args: [join(resources, 'aiti-cli', 'bin', 'aiti-bridge.mjs'), '--stdio'],
    });
  });

  it('says per client found what changed', async () => {
    const seen: unknown[] = [];
    const message = await registerWithClients({
      registerShim: (options) => {
        seen.push(options);
        return {
          clients: [
            { client: 'Claude Code', file: '/home/me/.claude.json', status: 'added' },
            { client: 'Cursor', file: '/home/me/.cursor/mcp.json', status: 'unchanged' },
            { client: 'VS Code', file: '/home/me/.config/Code/User/mcp.json', status: 'not-found' },
          ],
        };
      },
      home: '/home/me',
      shim: SHIM,
      mcpUrl: MCP,
    });
    expect(seen).toEqual([{ home: '/home/me', shim: SHIM }]);
    expect(message).toBe('Registered the aiti shim — Claude Code: added, Cursor: already registered.');
  });

  it('names the clients it could not change, and fails when none could be', async () => {
    const partly = await registerWithClients({
      registerShim: reporting([
        { client: 'Claude Code', file: '/h/.claude.json', status: 'updated' },
        {
          client: 'Codex',
          file: '/h/.codex/config.toml',
          status: 'error',
          error: 'bad TOML at line 3; left as it was',
        },
      ]),
      home: '/h',
      shim: SHIM,
      mcpUrl: MCP,
    });
    expect(partly).toBe(
      'Registered the aiti shim — Claude Code: updated. Failed — Codex: bad TOML at line 3; left as it was',
    );
    await expect(
      registerWithClients({
        registerShim: reporting([{ client: 'Codex', file: '/h/c.toml', status: 'error', error: 'cannot write' }]),
        home: '/h',
        shim: SHIM,
        mcpUrl: MCP,
      }),
    ).rejects.toThrow('Codex: cannot write');
  });

  it('says when no MCP client is installed for this user', async () => {
    const message = await registerWithClients({
      registerShim: reporting([
        { client: 'Claude Code', file: '/h/.claude.json', status: 'not-found' },
        { client: 'Cursor', file: '/h/.cursor/mcp.json', status: 'not-found' },
      ]),
      home: '/h',
      shim: SHIM,
      mcpUrl: MCP,
    });
    expect(message).toBe('No MCP client found for this user (looked for Claude Code, Cursor); nothing changed.');
  });

  it('with the real registerShim, writes the shim into the configs of the clients installed in that home', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    const deps = {
      // this machine's VS Code settings must stay out of the test: Linux paths under the temp home only
      registerShim: (options: { home: string; shim: typeof SHIM }) =>
        registerShim({ ...options, platform: 'linux', env: {} }),
      home,
      shim: SHIM,
      mcpUrl: MCP,
    };
    expect(await registerWithClients(deps)).toBe('Registered the aiti shim — Cursor: added.');
    expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { other: { command: 'x' }, aiti: { command: SHIM.command, args: SHIM.args } },
    });
    expect(await registerWithClients(deps)).toBe('Registered the aiti shim — Cursor: already registered.');
  });
});
