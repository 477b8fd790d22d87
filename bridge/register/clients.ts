import { join } from 'node:path';
import type { ShimEntry } from './entry.js';
import { vscodeProfiles } from './vscode-profiles.js';

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

const stdio = (shim: ShimEntry) => ({ type: 'stdio', command: shim.command, args: shim.args });
const plain = (shim: ShimEntry) => ({ command: shim.command, args: shim.args });

/**
 * The MCP clients --register-shim knows, with their user-level config files on this platform. Each follows the
 * variable its client reads for its folder: CLAUDE_CONFIG_DIR (Claude Code keeps `.claude.json` inside it then),
 * CODEX_HOME, GEMINI_CLI_HOME (the folder holding `.gemini`). VS Code and VS Code Insiders get one entry per
 * profile (the default one in `User/`, the others in `User/profiles/<id>/`).
 */
export function knownClients(home: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ClientConfig[] {
  const claudeDir = env.CLAUDE_CONFIG_DIR?.trim();
  const codexDir = env.CODEX_HOME?.trim() || join(home, '.codex');
  const geminiDir = join(env.GEMINI_CLI_HOME?.trim() || home, '.gemini');
  return [
    {
      client: 'Claude Code',
      file: claudeDir ? join(claudeDir, '.claude.json') : join(home, '.claude.json'),
      marker: claudeDir || join(home, '.claude'),
      format: 'json',
      container: 'mcpServers',
      entry: stdio,
    },
    {
      client: 'Cursor',
      file: join(home, '.cursor', 'mcp.json'),
      marker: join(home, '.cursor'),
      format: 'json',
      container: 'mcpServers',
      entry: plain,
    },
    ...vscodeClients(home, platform, env),
    {
      client: 'Codex',
      file: join(codexDir, 'config.toml'),
      marker: codexDir,
      format: 'toml',
      container: 'mcp_servers',
      entry: plain,
    },
    {
      client: 'Gemini CLI',
      file: join(geminiDir, 'settings.json'),
      marker: geminiDir,
      format: 'json',
      container: 'mcpServers',
      entry: plain,
    },
  ];
}

/** The folder holding VS Code's (or Insiders') `User/` settings on this platform. */
function vscodeUserDir(home: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv, product: string): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', product, 'User');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), product, 'User');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), product, 'User');
}

function vscodeClients(home: string, platform: NodeJS.Platform, env: NodeJS.ProcessEnv): ClientConfig[] {
  return [
    ['VS Code', 'Code'],
    ['VS Code Insiders', 'Code - Insiders'],
  ].flatMap(([client = '', product = '']) => {
    const user = vscodeUserDir(home, platform, env, product);
    const one = (name: string, folder: string): ClientConfig => ({
      client: name,
      file: join(folder, 'mcp.json'),
      marker: folder,
      format: 'json',
      container: 'servers',
      entry: stdio,
    });
    return [
      one(client, user),
      ...vscodeProfiles(user).map((profile) => one(`${client} (profile ${profile.name})`, profile.folder)),
    ];
  });
}
