import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { STRUCTURED_RESULTS } from '../bridge/protocol/index.js';
import { BIN } from './bridge-process.js';

/** An official MCP SDK client, over Streamable HTTP or through the stdio shim (the built one, as installed). */
export async function connectMcp(
  bridgeUrl: string,
  name: string,
  transport: 'streamable' | 'stdio',
  bin = BIN,
): Promise<Client> {
  // a program reading results' JSON; what a model reads is the text content, which the benches count
  const client = new Client(
    { name, version: '1.0.0' },
    { capabilities: { experimental: { [STRUCTURED_RESULTS]: {} } } },
  );
  if (transport === 'streamable') {
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp/mcp', bridgeUrl)));
  } else {
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [bin, '--stdio'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          AITI_BRIDGE_URL: bridgeUrl,
          AITI_LOG: 'warn',
          AITI_USE_DIST: '1',
        },
        stderr: 'ignore',
      }),
    );
  }
  return client;
}

/** Calls a tool; a tool error is thrown, so a benchmark never times a failure as a success. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
  if (result.isError) {
    const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ');
    throw new Error(`${name} failed: ${text}`);
  }
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}
