import { readFileSync } from 'node:fs';
import { bridgeVersion } from '../version.js';

/**
 * What this version's bridge answers to `initialize` and `tools/list`, written at build time
 * (scripts/tool-snapshot.js) from a real bridge, so the shim answers both at once without loading server code and
 * before any bridge runs.
 */
export interface ServerSnapshot {
  /** the protocol versions the bridge speaks, newest first */
  protocolVersions: string[];
  serverInfo: Record<string, unknown>;
  capabilities: Record<string, unknown>;
  instructions?: string;
  /** undefined when no snapshot was built (a development run): tools/list then needs the bridge */
  tools?: unknown[];
  /** the bridge's answers to a 2026-07-28 `server/discover` and `tools/list` (their `result`) */
  discover?: Record<string, unknown>;
  modernTools?: Record<string, unknown>;
}

/** Beside the built module (dist/bridge/shim/, dist/cli/bin/), or the build's copy when run from the sources. */
const PLACES = ['./tools.json', '../../dist/bridge/shim/tools.json'];

export function loadSnapshot(): ServerSnapshot {
  for (const place of PLACES) {
    try {
      const snapshot = JSON.parse(readFileSync(new URL(place, import.meta.url), 'utf8')) as ServerSnapshot;
      if (Array.isArray(snapshot.tools) && Array.isArray(snapshot.protocolVersions)) return snapshot;
    } catch {
      // try the next place
    }
  }
  return {
    protocolVersions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
    serverInfo: { name: 'aiti-bridge', version: bridgeVersion() },
    capabilities: { tools: {}, experimental: { 'claude/channel': {} } },
  };
}

/** The answer to the client's `initialize`, negotiated the way the bridge's MCP server does it. */
export function initializeResult(snapshot: ServerSnapshot, params: Record<string, unknown> | undefined): unknown {
  const asked = params?.protocolVersion;
  const protocolVersion =
    typeof asked === 'string' && snapshot.protocolVersions.includes(asked) ? asked : snapshot.protocolVersions[0];
  return {
    protocolVersion,
    capabilities: snapshot.capabilities,
    serverInfo: snapshot.serverInfo,
    ...(snapshot.instructions ? { instructions: snapshot.instructions } : {}),
  };
}
