import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registerShim } from '../../bridge/register/register.js';
import type { NodeSearch } from '../../electron/node-finder.js';
import { registerWithClients, shimScript, type RegisterDeps, type ShimReport } from '../../electron/register.js';
import { tempDir } from '../helpers/bridge.js';

const SCRIPT = '/src/aiti/bin/aiti-bridge.js';
const SHIM = { command: '/usr/bin/node', args: [SCRIPT, '--stdio'] };
const MCP = 'http://127.0.0.1:8777/mcp/mcp';
const reporting = (clients: ShimReport['clients']) => () => ({ clients });
const NODE_22: NodeSearch = { node: { path: '/usr/bin/node', version: 'v22.12.0' }, tooOld: [] };

/** The tray's register step with a Node found, for the home /home/me. */
const deps = (over: Partial<RegisterDeps>): RegisterDeps => ({
  registerShim: reporting([]),
  home: '/home/me',
  env: {},
  script: SCRIPT,
  node: async () => NODE_22,
  platform: 'linux',
  mcpUrl: MCP,
  ...over,
});

describe('"Register with MCP clients" from the tray', () => {
  it('registers the shim script of a checkout: its bin/aiti-bridge.js', () => {
    const root = tempDir();
    mkdirSync(join(root, 'bin'));
    writeFileSync(join(root, 'bin', 'aiti-bridge.js'), '');
    expect(shimScript(root)).toBe(join(root, 'bin', 'aiti-bridge.js'));
  });

  it('registers the one-file CLI an installed app ships in its resources, or says there is none', async () => {
    const resources = tempDir();
    const asar = join(resources, 'app.asar');
    expect(shimScript(asar, resources)).toBeUndefined();
    await expect(registerWithClients(deps({ script: undefined }))).rejects.toThrow(
      `add ${MCP} to your MCP client as a Streamable HTTP server instead`,
    );
    mkdirSync(join(resources, 'aiti-cli', 'bin'), { recursive: true });
    writeFileSync(join(resources, 'aiti-cli', 'bin', 'aiti-bridge.mjs'), '');
    expect(shimScript(asar, resources)).toBe(join(resources, 'aiti-cli', 'bin', 'aiti-bridge.mjs'));
  });

  it('registers the Node it found by its absolute path, and the environment the clients are found with', async () => {
    const seen: unknown[] = [];
    const env = { CLAUDE_CONFIG_DIR: '/home/me/work-claude' };
    const message = await registerWithClients(
      deps({
        env,
        node: async () => ({ node: { path: '/opt/homebrew/bin/node', version: 'v22.12.0' }, tooOld: [] }),
        registerShim: (options) => {
          seen.push(options);
          return { clients: [{ client: 'Claude Code', file: '/home/me/work-claude/.claude.json', status: 'added' }] };
        },
      }),
    );
    expect(seen).toEqual([
      { home: '/home/me', env, shim: { command: '/opt/homebrew/bin/node', args: [SCRIPT, '--stdio'] } },
    ]);
    expect(message).toBe('Registered the aiti shim (run by Node v22.12.0) — Claude Code: added.');
  });

  it('refuses without a usable Node, saying what to install, and writes nothing', async () => {
    let registered = false;
    const attempt = registerWithClients(
      deps({
        platform: 'darwin',
        node: async () => ({ tooOld: [{ path: '/usr/local/bin/node', version: 'v18.19.0' }] }),
        registerShim: () => {
          registered = true;
          return { clients: [] };
        },
      }),
    );
    await expect(attempt).rejects.toThrow(
      `MCP clients cannot run the aiti shim: it needs Node.js 20.11 or newer and none was found (/usr/local/bin/node is v18.19.0: too old). Install Node.js 22 LTS from https://nodejs.org or with "brew install node", then choose "Register with MCP clients" again; or add ${MCP} to your client as a Streamable HTTP server, which needs no Node.`,
    );
    expect(registered).toBe(false);
  });

  it('says per client found what changed', async () => {
    const message = await registerWithClients(
      deps({
        registerShim: reporting([
          { client: 'Claude Code', file: '/home/me/.claude.json', status: 'added' },
          { client: 'Cursor', file: '/home/me/.cursor/mcp.json', status: 'unchanged' },
          { client: 'VS Code', file: '/home/me/.config/Code/User/mcp.json', status: 'not-found' },
        ]),
      }),
    );
    expect(message).toBe(
      'Registered the aiti shim (run by Node v22.12.0) — Claude Code: added, Cursor: already registered.',
    );
  });

  it('names the clients it could not change, and fails when none could be', async () => {
    const partly = await registerWithClients(
      deps({
        registerShim: reporting([
          { client: 'Claude Code', file: '/h/.claude.json', status: 'updated' },
          {
            client: 'Codex',
            file: '/h/.codex/config.toml',
            status: 'error',
            error: 'bad TOML at line 3; left as it was',
          },
        ]),
      }),
    );
    expect(partly).toBe(
      'Registered the aiti shim (run by Node v22.12.0) — Claude Code: updated. Failed — Codex: bad TOML at line 3; left as it was',
    );
    await expect(
      registerWithClients(
        deps({
          registerShim: reporting([{ client: 'Codex', file: '/h/c.toml', status: 'error', error: 'cannot write' }]),
        }),
      ),
    ).rejects.toThrow('Codex: cannot write');
  });

  it('says when no MCP client is installed for this user', async () => {
    const message = await registerWithClients(
      deps({
        registerShim: reporting([
          { client: 'Claude Code', file: '/h/.claude.json', status: 'not-found' },
          { client: 'Cursor', file: '/h/.cursor/mcp.json', status: 'not-found' },
        ]),
      }),
    );
    expect(message).toBe('No MCP client found for this user (looked for Claude Code, Cursor); nothing changed.');
  });

  it('with the real registerShim, writes the shim into the configs of the clients installed in that home', async () => {
    const home = tempDir();
    mkdirSync(join(home, '.cursor'));
    writeFileSync(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { other: { command: 'x' } } }));
    const real = deps({
      // this machine's VS Code settings must stay out of the test: Linux paths under the temp home only
      registerShim: (options) => registerShim({ ...options, platform: 'linux' }),
      home,
    });
    expect(await registerWithClients(real)).toBe('Registered the aiti shim (run by Node v22.12.0) — Cursor: added.');
    expect(JSON.parse(readFileSync(join(home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { other: { command: 'x' }, aiti: { command: SHIM.command, args: SHIM.args } },
    });
    expect(await registerWithClients(real)).toBe(
      'Registered the aiti shim (run by Node v22.12.0) — Cursor: already registered.',
    );
  });
});
