import { existsSync } from 'node:fs';
import { join } from 'node:path';

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
  registerShim(options: { home: string; shim: ShimCommand }): ShimReport;
  home: string;
  /** the shim to register, or undefined where this install has none (see shimForApp) */
  shim: ShimCommand | undefined;
  /** the app's MCP endpoint, offered instead when there is no shim */
  mcpUrl: string;
}

/**
 * The shim of this install. From a checkout: Node running its bin/aiti-bridge.js --stdio (npm's Node under
 * npm start, else the one on PATH). From an installed app: the one-file CLI shipped in its resources
 * (`<resources>/aiti-cli/bin/aiti-bridge.mjs`), run by the Node on PATH, since the app's own binary cannot run
 * scripts (the RunAsNode fuse is off). Undefined when neither exists.
 */
export function shimForApp(root: string, env: NodeJS.ProcessEnv, resourcesPath?: string): ShimCommand | undefined {
  const node = env.npm_node_execpath || 'node';
  const bin = join(root, 'bin', 'aiti-bridge.js');
  if (!root.includes('.asar') && existsSync(bin)) return { command: node, args: [bin, '--stdio'] };
  const shipped = resourcesPath && join(resourcesPath, 'aiti-cli', 'bin', 'aiti-bridge.mjs');
  if (shipped && existsSync(shipped)) return { command: node, args: [shipped, '--stdio'] };
  return undefined;
}

const STATUS: Record<string, string> = {
  added: 'added',
  updated: 'updated',
  unchanged: 'already registered',
};

/** "Register with MCP clients" from the tray: runs registerShim and says in one short text what it did. */
export async function registerWithClients(deps: RegisterDeps): Promise<string> {
  if (!deps.shim) {
    throw new Error(
      `this app has no stdio shim to register (its aiti-cli resource is missing); add ${deps.mcpUrl} to your MCP client as a Streamable HTTP server instead`,
    );
  }
  const report = deps.registerShim({ home: deps.home, shim: deps.shim });
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
  return errors ? `Registered the aiti shim — ${done}. Failed — ${errors}` : `Registered the aiti shim — ${done}.`;
}
