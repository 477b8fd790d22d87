import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { STRUCTURED_RESULTS } from '../../bridge/protocol/index.js';
import { onCleanup } from './bridge.js';

export type AgentTransportKind = 'streamable' | 'stateless' | 'stdio';

export interface ConnectOptions {
  /** default 'streamable' */
  transport?: AgentTransportKind;
  /** the MCP clientInfo name; the bridge derives the agent id from it (default "test-agent") */
  clientName?: string;
  capabilities?: ClientCapabilities;
  /** sent as Authorization: Bearer (HTTP), or given to the shim as AITI_AGENT_TOKEN with --mcp-auth (stdio) */
  token?: string;
  /** stdio only: extra environment for the shim process */
  env?: Record<string, string>;
  /** streamable only: told of each response to a POST, by its content type (a call that waits gets an event stream) */
  onPostResponse?: (contentType: string) => void;
  /** HTTP only: headers sent with every request (`x-aiti-agent` names the agent of a stateless caller) */
  headers?: Record<string, string>;
  /** streamable only: the fetch the transport uses (a test that cuts or drops a request in flight) */
  fetch?: typeof fetch;
  /**
   * ask for results' full JSON (structuredContent), as a program does (default true: the tests read it); false to
   * get what a model reads, the text alone
   */
  structured?: boolean;
}

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

/**
 * A connected official MCP SDK Client, speaking to the bridge over the chosen transport, closed after the test.
 * - streamable: Streamable HTTP with a session (POST + GET stream);
 * - stateless: the same client, but the session id is never kept, so every POST is stateless;
 * - stdio: the real shim (`node bin/aiti-bridge.js --stdio`) as a child process, forwarding to the bridge.
 */
export async function connectAgent(bridgeUrl: string, options: ConnectOptions = {}): Promise<Client> {
  const kind = options.transport ?? 'streamable';
  const structured = options.structured ?? true;
  const capabilities = options.capabilities ?? {};
  const client = new Client(
    { name: options.clientName ?? 'test-agent', version: '1.0.0' },
    {
      capabilities: structured
        ? { ...capabilities, experimental: { ...capabilities.experimental, [STRUCTURED_RESULTS]: {} } }
        : capabilities,
    },
  );
  await client.connect(transportFor(bridgeUrl, kind, options));
  onCleanup(() => client.close());
  return client;
}

function transportFor(bridgeUrl: string, kind: AgentTransportKind, options: ConnectOptions): Transport {
  const url = new URL('/mcp/mcp', bridgeUrl);
  const headers: Record<string, string> = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  if (kind === 'streamable') {
    const told = options.onPostResponse;
    if (options.fetch)
      return new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: options.fetch });
    if (!told) return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
    return new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        if (init?.method === 'POST') told(res.headers.get('content-type') ?? '');
        return res;
      },
    });
  }
  if (kind === 'stateless') {
    const structured = options.structured ?? true;
    return new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      // Forget the session id initialize returns: every later POST then goes out without one. A stateless call
      // has no session to carry the capability, so each tool call asks for the JSON in its own _meta.
      fetch: async (input, init) => {
        const res = await fetch(input, structured ? withStructuredMeta(init) : init);
        if (!res.headers.has('mcp-session-id')) return res;
        const stripped = new Headers(res.headers);
        stripped.delete('mcp-session-id');
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers: stripped });
      },
    });
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    AITI_BRIDGE_URL: bridgeUrl,
    AITI_LOG: 'warn',
    ...(options.token ? { AITI_AGENT_TOKEN: options.token } : {}),
    ...options.env,
  };
  return new StdioClientTransport({
    command: process.execPath,
    args: [BIN, '--stdio', ...(options.token ? ['--mcp-auth'] : [])],
    env,
    stderr: 'pipe',
  });
}

/** A stateless tools/call body with `_meta[STRUCTURED_RESULTS]: true` added. */
function withStructuredMeta(init: RequestInit | undefined): RequestInit | undefined {
  if (typeof init?.body !== 'string') return init;
  const message = JSON.parse(init.body) as { method?: string; params?: { _meta?: Record<string, unknown> } };
  if (message.method !== 'tools/call' || !message.params) return init;
  message.params._meta = { ...message.params._meta, [STRUCTURED_RESULTS]: true };
  return { ...init, body: JSON.stringify(message) };
}

/** A tool's structuredContent; a failed call throws with its text. */
export function structured(result: CallToolResult): Record<string, unknown> {
  if (result.isError) throw new Error(`tool failed: ${resultText(result)}`);
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

export function resultText(result: CallToolResult): string {
  return result.content
    .filter((c): c is { type: 'text'; text: string } => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** Calls a tool and returns its result, typed as a tool result. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
