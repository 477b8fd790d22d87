import { join } from 'node:path';
import type { RunCommand } from './run-command.js';

/** The oldest Node the shim runs on: the package's engines floor. */
export const MIN_NODE: readonly [number, number] = [20, 11];

export interface NodeFinderDeps {
  platform: NodeJS.Platform;
  /** the app's environment with the login shell's PATH in it (shell-env.ts) */
  env: NodeJS.ProcessEnv;
  home: string;
  run: RunCommand;
  exists(path: string): boolean;
  /** the entries of a folder, [] when there is none */
  list(folder: string): string[];
}

export interface NodeSearch {
  /** the first Node found that is new enough, as an absolute path */
  node?: { path: string; version: string };
  /** every Node that answered but is too old */
  tooOld: Array<{ path: string; version: string }>;
}

/** nvm's and nvm-windows' version folders, newest first. */
function versionFolders(deps: NodeFinderDeps, folder: string): string[] {
  const numeric = (name: string) => (/^v?(\d+)\.(\d+)\.(\d+)$/.exec(name) ?? []).slice(1).map(Number);
  return deps
    .list(folder)
    .filter((name) => numeric(name).length === 3)
    .sort((a, b) => {
      const [x, y] = [numeric(a), numeric(b)];
      return (y[0] ?? 0) - (x[0] ?? 0) || (y[1] ?? 0) - (x[1] ?? 0) || (y[2] ?? 0) - (x[2] ?? 0);
    })
    .map((name) => join(folder, name));
}

/** Where Node is, in the order a person's terminal would find it, then where installers put it. */
function candidates(deps: NodeFinderDeps): string[] {
  const { env, home, platform } = deps;
  const exe = platform === 'win32' ? 'node.exe' : 'node';
  const separator = platform === 'win32' ? ';' : ':';
  const onPath = (env.PATH ?? env.Path ?? '').split(separator).filter(Boolean);
  const nvm = env.NVM_DIR || join(home, '.nvm');
  const known =
    platform === 'win32'
      ? [
          join(env.ProgramFiles || 'C:\\Program Files', 'nodejs'),
          ...(env.NVM_SYMLINK ? [env.NVM_SYMLINK] : []),
          ...versionFolders(deps, env.NVM_HOME || join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'nvm')),
          join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Volta', 'bin'),
        ]
      : [
          ...(platform === 'darwin' ? ['/opt/homebrew/bin', '/usr/local/bin', '/opt/local/bin'] : ['/usr/local/bin']),
          '/usr/bin',
          join(home, '.volta', 'bin'),
          ...versionFolders(deps, join(nvm, 'versions', 'node')).map((folder) => join(folder, 'bin')),
          join(home, '.asdf', 'shims'),
          join(home, '.local', 'share', 'mise', 'shims'),
          ...(platform === 'linux' ? ['/snap/bin'] : []),
        ];
  const paths = [
    ...(env.npm_node_execpath ? [env.npm_node_execpath] : []),
    ...[...onPath, ...known].map((folder) => join(folder, exe)),
  ];
  return [...new Set(paths)];
}

const newEnough = (version: string) => {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
};

/**
 * The Node that MCP clients can run the shim with. Clients start the shim with their own environment (an app
 * started from the dock has no nvm or Homebrew on its PATH), so the entry names Node by its absolute path: the
 * first one, in the order above, that answers `--version` with MIN_NODE or newer.
 */
export async function findNode(deps: NodeFinderDeps): Promise<NodeSearch> {
  const tooOld: NodeSearch['tooOld'] = [];
  for (const path of candidates(deps)) {
    if (!deps.exists(path)) continue;
    const answer = await deps.run(path, ['--version'], { timeoutMs: 5000 });
    const version = /^v\d+\.\d+\.\d+/.exec(answer?.stdout.trim() ?? '')?.[0];
    if (!version || answer?.status !== 0) continue;
    if (newEnough(version)) return { node: { path, version }, tooOld };
    tooOld.push({ path, version });
  }
  return { tooOld };
}

/** What the tray and the window say when no usable Node was found; undefined when one was. */
export function nodeProblem(search: NodeSearch, platform: NodeJS.Platform, mcpUrl: string): string | undefined {
  if (search.node) return undefined;
  const old = search.tooOld.length
    ? ` (${search.tooOld.map((n) => `${n.path} is ${n.version}`).join(', ')}: too old)`
    : '';
  const how = platform === 'darwin' ? 'from https://nodejs.org or with "brew install node"' : 'from https://nodejs.org';
  return `MCP clients cannot run the aiti shim: it needs Node.js ${MIN_NODE.join('.')} or newer and none was found${old}. Install Node.js 22 LTS ${how}, then choose "Register with MCP clients" again; or add ${mcpUrl} to your client as a Streamable HTTP server, which needs no Node.`;
}
