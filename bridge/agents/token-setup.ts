/**
 * What to paste on the agent's machine for an agent token. The token itself appears in none of these lines: it is
 * saved once from standard input into that machine's data dir (0600, `aiti-bridge agent-token save`), never in a
 * command line (argv, shell history) or a workspace file people commit (`.vscode/mcp.json`). Every client then runs
 * the stdio shim, which reads it there and sends it only to a bridge that first proves it holds that token (the
 * `?of=agent` token proof), so a program that took the tunnel's port gets nothing. Clients that speak HTTP with a
 * static bearer header cannot check the peer, so they are not offered.
 */
export interface SetupLine {
  client: string;
  text: string;
}

const SHIM = ['-y', '@aiti-ai/aiti-bridge', '--stdio'];

export function tokenSetup(base: string, _token: string, name: string): SetupLine[] {
  const url = base.replace(/\/$/, '');
  const env = { AITI_BRIDGE_URL: url, AITI_MCP_AUTH: '1' };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const stdio = { command: 'npx', args: SHIM, env };
  return [
    {
      client: `First, on the agent's machine: save the token there (paste it, then Ctrl-D; it speaks for "${name}")`,
      text: 'npx -y @aiti-ai/aiti-bridge agent-token save',
    },
    {
      client: 'Claude Code',
      text: `claude mcp add aiti --scope user --env AITI_BRIDGE_URL=${url} --env AITI_MCP_AUTH=1 -- npx ${SHIM.join(' ')}`,
    },
    {
      client: 'Codex (~/.codex/config.toml)',
      text: `[mcp_servers.aiti]\ncommand = "npx"\nargs = ${JSON.stringify(SHIM)}\nenv = { AITI_BRIDGE_URL = "${url}", AITI_MCP_AUTH = "1" }`,
    },
    { client: 'Cursor (~/.cursor/mcp.json)', text: json({ mcpServers: { aiti: stdio } }) },
    {
      client: 'VS Code (your user mcp.json: "MCP: Open User Configuration", not the workspace\'s .vscode/mcp.json)',
      text: json({ servers: { aiti: { type: 'stdio', ...stdio } } }),
    },
    { client: 'Gemini CLI (~/.gemini/settings.json)', text: json({ mcpServers: { aiti: stdio } }) },
    {
      client: 'Any stdio client (the shim)',
      text: `AITI_BRIDGE_URL=${url} AITI_MCP_AUTH=1 npx ${SHIM.join(' ')}`,
    },
  ];
}
