import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, resolveConfig, type BridgeConfig } from '../config.js';

/** Where a client of the running bridge connects, and with which token (the shim and `aiti-bridge call`). */
export interface BridgeTarget {
  endpoint: URL;
  token?: string;
}

/**
 * AITI_BRIDGE_URL (default http://127.0.0.1:<port>), and the token when --mcp-auth (or AITI_MCP_AUTH) is on:
 * --token / AITI_BRIDGE_TOKEN, else the agent token file in the data dir (never the human's token file: an agent
 * must not be able to answer the human's asks). Takes the bridge's own flags.
 */
export function bridgeTarget(argv: string[], env: NodeJS.ProcessEnv): BridgeTarget {
  const config = resolveConfig(argv, env);
  const base = env.AITI_BRIDGE_URL || `http://127.0.0.1:${config.port || 8777}`;
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp/mcp', base);
  } catch {
    throw new ConfigError(`AITI_BRIDGE_URL must be a URL such as http://127.0.0.1:8777, got "${base}"`);
  }
  if (!/^https?:$/.test(endpoint.protocol)) {
    throw new ConfigError(`AITI_BRIDGE_URL must be http:// or https://, got "${base}"`);
  }
  return { endpoint, ...(config.mcpAuth ? { token: readToken(config) } : {}) };
}

function readToken(config: BridgeConfig): string {
  if (config.token) return config.token;
  const file = join(config.dataDir, 'aiti-bridge', 'agent-token');
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  } catch {
    // reported below
  }
  throw new ConfigError(
    `--mcp-auth needs the agent token: set --data-dir (or AITI_BRIDGE_DATA_DIR) to the bridge's data dir (no token in ${file}), or AITI_BRIDGE_TOKEN`,
  );
}
