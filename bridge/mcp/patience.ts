import { CLIENT_TIMEOUT_MS } from '../protocol/index.js';

/**
 * How long a known MCP client waits for one tool call unless its user set otherwise, by the name it gives in
 * clientInfo (measured with each CLI, docs/PROTOCOL.md): progress notifications extend none of them.
 */
const CLIENT_DEFAULTS: Record<string, number | undefined> = {
  'codex-mcp-client': 300_000,
  'gemini-cli-mcp-client': 600_000,
  // Claude Code waits ~27.8 h unless MCP_TOOL_TIMEOUT or the server's `timeout` says less (the shim reads both)
  'claude-code': undefined,
  // aiti-bridge call waits up to an hour, the longest an ask can be open
  'aiti-cli': undefined,
};

/** The MCP SDKs' own default request time-out, which most other clients keep. */
export const SDK_DEFAULT_TIMEOUT_MS = 60_000;

/**
 * How long the caller waits for this tool call: what the call says (CLIENT_TIMEOUT_MS, from the stdio shim), else
 * what its client is known to wait, else the SDKs' default for a client that named itself; undefined for a caller
 * that named no client (a stateless POST from a script) or a client known to wait as long as an ask can last.
 */
export function patienceOf(
  meta: Record<string, unknown> | undefined,
  clientName: string | undefined,
): number | undefined {
  const said = meta?.[CLIENT_TIMEOUT_MS];
  if (typeof said === 'number' && Number.isFinite(said) && said > 0) return said;
  if (clientName === undefined) return undefined;
  return clientName in CLIENT_DEFAULTS ? CLIENT_DEFAULTS[clientName] : SDK_DEFAULT_TIMEOUT_MS;
}
