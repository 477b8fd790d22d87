import { join } from 'node:path';
import type { ShimEntry } from './entry.js';

export interface ClientConfig {
  /** the client's name as people know it */
  client: string;
  /** the config file */
  file: string;
  /** the folder whose presence says the client is installed */
  marker: string;
  format: 'json' | 'toml';
  /** JSON: the object holding the servers (`mcpServers`, `servers`); TOML: the table (`mcp_servers`) */
  container: string;
  /** the keys of the `aiti` entry the shim owns (a subset of OWNED_KEYS); the rest of an entry is the user's */
  entry(shim: ShimEntry): Record<string, string | string[]>;
}

export const SERVER_NAME = 'aiti';

/** The keys --register-shim writes (or takes out) in an existing entry; every other key stays as the user set it. */
export const OWNED_KEYS = ['type', 'command', 'args'] as const;

/** The MCP clients --register-shim knows, with their user-level config files on this platform. */
export function knownClients(home: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ClientConfig[] {
  const vscodeUser =
    platform === 'darwin'
      ? join(home, 'Library', 'Application Support', 'Code', 'User')
      : platform === 'win32'
        ? join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Code', 'User')
        : join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Code', 'User');
  return [
    {
      client: 'Claude Code',
      file: join(home, '.claude.json'),
      marker: join(home, '.claude'),
      format: 'json',
      container: 'mcpServers',
      entry: (shim) => ({ type: 'stdio', command: shim.command, args: shim.args }),
    },
    {
      client: 'Cursor',
      file: join(home, '.cursor', 'mcp.json'),
      marker: join(home, '.cursor'),
      format: 'json',
      container: 'mcpServers',
      entry: (shim) => ({ command: shim.command, args: shim.args }),
    },
    {
      client: 'VS Code',
      file: join(vscodeUser, 'mcp.json'),
      marker: vscodeUser,
      format: 'json',
      container: 'servers',
      entry: (shim) => ({ type: 'stdio', command: shim.command, args: shim.args }),
    },
    {
      client: 'Codex',
      file: join(home, '.codex', 'config.toml'),
      marker: join(home, '.codex'),
      format: 'toml',
      container: 'mcp_servers',
      entry: (shim) => ({ command: shim.command, args: shim.args }),
    },
  ];
}
