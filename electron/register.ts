import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nodeProblem, type NodeSearch } from './node-finder.js';

/** The command an MCP client runs to start the stdio shim. */
export interface ShimCommand {
  command: string;
  args: string[];
}

/** What `registerShim` (bridge/register) reports, as far as the tray tells it. */
export interface ShimReport {
  clients: Array<{ client: string; file: string; status: string; error?: string }>;
}

export interface RegisterDeps {
  /** bridge/register's registerShim: the `aiti-bridge --register-shim` logic */
  registerShim(options: { home: string; shim: ShimCommand; env: NodeJS.ProcessEnv }): ShimReport;
  home: string;
  /** the environment the clients' folders are found with (the login shell's CLAUDE_CONFIG_DIR, CODEX_HOME …) */
  env: NodeJS.ProcessEnv;
  /** the shim script of this install, or undefined where it has none (see shimScript) */
  script: string | undefined;
  /** the Node that will run it (node-finder.ts) */
  node(): Promise<NodeSearch>;
  platform: NodeJS.Platform;
  /** the app's MCP endpoint, offered instead when there is no shim or no Node */
  mcpUrl: string;
}

/**
 * The shim script of this install. From a checkout: its bin/aiti-bridge.js. From an installed app: the one-file
 * CLI shipped in its resources (`<resources>/aiti-cli/bin/aiti-bridge.mjs`), since the app's own binary cannot
 * run scripts (the RunAsNode fuse is off). Undefined when neither exists.
 */
export function shimScript(root: string, resourcesPath?: string): string | undefined {
  const bin = join(root, 'bin', 'aiti-bridge.js');
  if (!root.includes('.asar') && existsSync(bin)) return bin;
  const shipped = resourcesPath && join(resourcesPath, 'aiti-cli', 'bin', 'aiti-bridge.mjs');
  return shipped && existsSync(shipped) ? shipped : undefined;
}

const STATUS: Record<string, string> = {
  added: 'added',
  updated: 'updated',
  unchanged: 'already registered',
};

/**
 * "Register with MCP clients" from the tray: registers the shim run by an absolute path to a Node that works, and
 * says in one short text what it did; refuses, saying what to install, when there is no such Node.
 */
export async function registerWithClients(deps: RegisterDeps): Promise<string> {
  if (!deps.script) {
    throw new Error(
      `this app has no stdio shim to register (its aiti-cli resource is missing); add ${deps.mcpUrl} to your MCP client as a Streamable HTTP server instead`,
    );
  }
  const search = await deps.node();
  if (!search.node) throw new Error(nodeProblem(search, deps.platform, deps.mcpUrl));
  const shim = { command: search.node.path, args: [deps.script, '--stdio'] };
  const report = deps.registerShim({ home: deps.home, shim, env: deps.env });
  const found = report.clients.filter((c) => c.status !== 'not-found');
  const failed = found.filter((c) => c.status === 'error');
  if (!found.length) {
    const looked = report.clients.map((c) => c.client).join(', ');
    return `No MCP client found for this user (looked for ${looked}); nothing changed.`;
  }
  const done = found
    .filter((c) => c.status !== 'error')
    .map((c) => `${c.client}: ${STATUS[c.status] ?? c.status}`)
    .join(', ');
  const errors = failed.map((c) => `${c.client}: ${c.error ?? 'failed'}`).join('; ');
  if (!done) throw new Error(errors);
  const ran = `run by Node ${search.node.version}`;
  return errors
    ? `Registered the aiti shim (${ran}) — ${done}. Failed — ${errors}`
    : `Registered the aiti shim (${ran}) — ${done}.`;
}
