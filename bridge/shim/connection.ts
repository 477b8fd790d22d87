import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError, resolveConfig, type BridgeConfig } from '../config.js';
import { locateBridge } from '../locate.js';
import { sharedDirProblem } from '../private-files.js';

/** Where a client of the running bridge connects, and with which token (the shim and `aiti-bridge call`). */
export interface BridgeTarget {
  /** the MCP endpoint (`http://localhost/mcp/mcp` through a Unix socket) */
  endpoint: URL;
  /** `AITI_BRIDGE_URL=unix:<path>`: the socket the requests go through */
  socketPath?: string;
  /** the agents' token, sent only after the bridge proved it holds it (prove-peer.ts) */
  token?: string;
  /** how to name the bridge to a person: the URL, or `unix:<path>` */
  where: string;
  /** how the address was found (bridge/locate.ts): "--port", "AITI_BRIDGE_URL", the running bridge's record … */
  from: string;
}

/**
 * Where the bridge is, by the rule of bridge/locate.ts: --port, else AITI_BRIDGE_URL (`unix:<path>` for a bridge
 * started with --socket), else AITI_BRIDGE_PORT, else the running bridge's record in the data dir, else 8777; and the
 * agents' token: AITI_AGENT_TOKEN whenever it is set (an agent token for the remote listener, or the local one),
 * else with --mcp-auth (or AITI_MCP_AUTH, on by default on a shared machine) the agent token file in the data dir.
 * Never the human's token (--token, AITI_BRIDGE_TOKEN, the token file): what an agent holds must not answer the
 * human's asks. Takes the bridge's own flags.
 */
export function bridgeTarget(argv: string[], env: NodeJS.ProcessEnv): BridgeTarget {
  const config = resolveConfig(argv, env);
  const portFlag = argv.some((a) => a === '--port' || a.startsWith('--port='));
  const portEnv = !env.AITI_BRIDGE_URL?.trim() && Boolean(env.AITI_BRIDGE_PORT?.trim());
  const port = portFlag || portEnv ? { url: `http://127.0.0.1:${config.port || 8777}` } : undefined;
  const located = locateBridge({
    env,
    dataDir: config.dataDir,
    ...(port ? { flag: { ...port, name: portFlag ? '--port' : 'AITI_BRIDGE_PORT' } } : {}),
  });
  const base = located.url;
  const from = located.from;
  // an agent on another machine is given its URL and token in the environment: the token alone says to send it
  const token = config.mcpAuth || env.AITI_AGENT_TOKEN?.trim() ? { token: agentToken(config, env) } : {};
  if (base.startsWith('unix:')) {
    const socketPath = base.slice('unix:'.length);
    if (!isAbsolute(socketPath))
      throw new ConfigError(`AITI_BRIDGE_URL=unix:<path> needs an absolute path, got "${base}"`);
    const problem = sharedDirProblem(dirname(socketPath));
    if (problem)
      throw new ConfigError(
        `AITI_BRIDGE_URL=${base}: ${problem}, so another user could stand in for the bridge there; start the bridge with --socket in a directory only you may enter`,
      );
    return { endpoint: new URL('http://localhost/mcp/mcp'), socketPath, where: base, from, ...token };
  }
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp/mcp', base);
  } catch {
    throw new ConfigError(`AITI_BRIDGE_URL must be a URL such as http://127.0.0.1:8777 or unix:<path>, got "${base}"`);
  }
  if (!/^https?:$/.test(endpoint.protocol)) {
    throw new ConfigError(`AITI_BRIDGE_URL must be http://, https:// or unix:<path>, got "${base}"`);
  }
  return { endpoint, where: endpoint.origin, from, ...token };
}

function agentToken(config: BridgeConfig, env: NodeJS.ProcessEnv): string {
  const given = env.AITI_AGENT_TOKEN?.trim();
  if (given) return given;
  const file = join(config.dataDir, 'aiti-bridge', 'agent-token');
  try {
    const token = readFileSync(file, 'utf8').trim();
    if (token) return token;
  } catch {
    // reported below
  }
  throw new ConfigError(
    `--mcp-auth needs the agent token: set --data-dir (or AITI_BRIDGE_DATA_DIR) to the bridge's data dir (no token in ${file}), or AITI_AGENT_TOKEN; the human's token (AITI_BRIDGE_TOKEN) is never sent by agents`,
  );
}
