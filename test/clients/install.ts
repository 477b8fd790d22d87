import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type ClientName = 'claude-code' | 'codex' | 'gemini-cli';
/** what scripts/install-clients.js installs: the clients, and the MCP conformance suite */
export type Installable = ClientName | 'conformance';

/** How to start an installed client: `command ...args`; or why it is not there. */
export type Installed = { command: string; args: string[]; version: string } | { missing: string };

const SCRIPT = fileURLToPath(new URL('../../scripts/install-clients.js', import.meta.url));
let cache: Record<string, Installed> | undefined;

/**
 * The pinned clients, installed by scripts/install-clients.js when missing (CI has installed them already, so this
 * is a quick look at their client.json). Runs once per test process; a client npm could not install comes back as
 * `{missing}` with npm's reason, for its tests to skip saying so.
 */
export function installedClient(name: Installable): Installed {
  if (!cache) {
    let stdout: string;
    try {
      stdout = execFileSync(process.execPath, [SCRIPT, '--json'], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        timeout: 15 * 60_000,
      });
    } catch (error) {
      // exit 1: some client is missing; its reason is in the JSON all the same
      stdout = String((error as { stdout?: unknown }).stdout ?? '');
      if (!stdout)
        stdout = JSON.stringify({ [name]: { missing: `the installer failed: ${(error as Error).message}` } });
    }
    cache = JSON.parse(stdout) as Record<string, Installed>;
  }
  return cache[name] ?? { missing: `scripts/install-clients.js knows no client ${name}` };
}
