/**
 * "Register with MCP clients" from the tray: the `aiti-bridge --register-shim` logic.
 * UNFINISHED: bridge/register/ (registerShim) is being written by the MCP engineer; until it lands, this says
 * what to run instead.
 */
export async function registerWithClients(_options: { home: string }): Promise<string> {
  throw new Error('not available in this build yet; run "aiti-bridge --register-shim" in a terminal');
}
