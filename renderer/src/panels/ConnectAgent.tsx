import { useT } from '../i18n/index.js';
import { Copyable } from './ConnectHelp.js';

/**
 * How to connect an agent to this bridge, its own address filled in: the MCP endpoint, the command that adds the
 * stdio shim to every MCP client, one line per client, and an SDK client's two lines. Beside "Connect a page".
 */
export function ConnectAgent({ open }: { open: boolean }) {
  const words = useT().agents.connectAgent;
  const origin = window.location.origin;
  const mcp = `${origin}/mcp/mcp`;
  const ways = [
    { label: words.endpoint, text: mcp },
    { label: words.register, text: 'aiti-bridge --register-shim' },
    { label: 'Claude Code', text: `claude mcp add --transport http aiti ${mcp}` },
    { label: 'Codex', text: `codex mcp add aiti --env AITI_BRIDGE_URL=${origin} -- aiti-bridge --stdio` },
    { label: 'Gemini CLI', text: `gemini mcp add --transport http aiti ${mcp}` },
    {
      label: words.sdk,
      text: `const client = new Client({ name: 'my-agent', version: '1.0.0' });\nawait client.connect(new StreamableHTTPClientTransport(new URL('${mcp}')));`,
    },
  ];
  return (
    <details className="connect-help" open={open}>
      <summary>{words.title}</summary>
      {ways.map((way) => (
        <Copyable key={way.label} {...way} />
      ))}
    </details>
  );
}
