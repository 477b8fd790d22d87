import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The command an MCP client runs to start the shim. */
export interface ShimEntry {
  command: string;
  args: string[];
}

/**
 * The shim entry written into client configs: this Node and this install's `bin/aiti-bridge.js --stdio`, both
 * absolute. It works offline and runs the same version as the bridge; no URL is written (the shim reads
 * AITI_BRIDGE_URL, default http://127.0.0.1:8777). Re-run --register-shim after moving the install.
 */
export function defaultShimEntry(): ShimEntry {
  // from bridge/register/ (sources) or dist/bridge/register/ (build)
  const candidates = ['../../bin/aiti-bridge.js', '../../../bin/aiti-bridge.js'].map((rel) =>
    fileURLToPath(new URL(rel, import.meta.url)),
  );
  const bin = candidates.find((file) => existsSync(file)) ?? candidates[0] ?? 'aiti-bridge';
  return { command: process.execPath, args: [bin, '--stdio'] };
}
