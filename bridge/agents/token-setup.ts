/**
 * What to paste into each MCP client on the agent's machine for an agent token: the bridge's MCP endpoint as that
 * machine reaches it (through a tunnel, usually http://127.0.0.1:<port>) and the token as a static bearer header.
 * No OAuth: a remote box cannot take an OAuth callback on its own localhost.
 */
export interface SetupLine {
  client: string;
  text: string;
}

export function tokenSetup(base: string, token: string, name: string): SetupLine[] {
  const endpoint = `${base.replace(/\/$/, '')}/mcp/mcp`;
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const headers = { Authorization: `Bearer ${token}` };
  return [
    {
      client: 'Claude Code',
      text: `claude mcp add --transport http aiti ${endpoint} --header "Authorization: Bearer ${token}"`,
    },
    {
      client: 'Codex (~/.codex/config.toml, and the variable in the shell that starts codex)',
      text: `[mcp_servers.aiti]\nurl = "${endpoint}"\nbearer_token_env_var = "AITI_AGENT_TOKEN"\n\nexport AITI_AGENT_TOKEN=${token}`,
    },
    { client: 'Cursor (~/.cursor/mcp.json)', text: json({ mcpServers: { aiti: { url: endpoint, headers } } }) },
    {
      client: 'VS Code (.vscode/mcp.json)',
      text: json({ servers: { aiti: { type: 'http', url: endpoint, headers } } }),
    },
    {
      client: 'Gemini CLI (~/.gemini/settings.json)',
      text: json({ mcpServers: { aiti: { httpUrl: endpoint, headers } } }),
    },
    {
      client: `Any stdio client (the shim, on the agent's machine; it speaks for "${name}")`,
      text: `AITI_BRIDGE_URL=${base.replace(/\/$/, '')} AITI_AGENT_TOKEN=${token} npx -y @aiti-ai/aiti-bridge --stdio`,
    },
  ];
}
