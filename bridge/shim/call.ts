import {
  Client,
  ProtocolError,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type CallToolResult,
} from '@modelcontextprotocol/client';
import { ConfigError, OPTIONS, takesValue } from '../config.js';
import { findTool } from '../mcp/tools/index.js';
import { describeZodError } from '../protocol/index.js';
import { bridgeVersion } from '../version.js';
import { impostorText, provePeer } from '../prove-peer.js';
import { bridgeTarget } from './connection.js';
import { unixFetch } from './unix-fetch.js';

export interface CallOutput {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const defaultOutput: CallOutput = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/**
 * `aiti-bridge call <tool> [json]`: runs one tool against the running bridge and prints its result (the text
 * the agent would read). Without a tool, lists the tools. Exit code 1 when the tool answered with an error,
 * 3 when the bridge cannot be reached.
 */
export async function runCall(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: CallOutput = defaultOutput,
): Promise<number> {
  const { positional, flags } = splitArgs(argv);
  const [tool, json] = positional;
  let args: Record<string, unknown> = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError(
        `the arguments must be one JSON object, e.g. '{"pageId":"p1"}': ${(error as Error).message}`,
      );
    }
    if (!args || typeof args !== 'object' || Array.isArray(args)) {
      throw new ConfigError(`the arguments must be a JSON object, got ${json}`);
    }
  }
  const definition = tool ? findTool(tool) : undefined;
  if (definition) {
    const parsed = definition.inputSchema.safeParse(args);
    if (!parsed.success) {
      out.stderr(`aiti-bridge call ${tool}: ${describeZodError(parsed.error).message}\n`);
      return 1;
    }
  }
  const target = bridgeTarget(flags, env);
  if (target.token) {
    // the agent token goes only to a bridge that proves it holds it
    const proof = await provePeer(
      { url: target.endpoint, ...(target.socketPath ? { socketPath: target.socketPath } : {}) },
      target.token,
      'agent',
    );
    if (proof.kind !== 'proven') {
      out.stderr(
        proof.kind === 'impostor'
          ? `aiti-bridge call: ${impostorText(target.where, proof.why)}\n`
          : `aiti-bridge call: cannot reach the bridge at ${target.where} (${proof.why}; the address came from ${target.from}); start it with "aiti-bridge" or set AITI_BRIDGE_URL\n`,
      );
      return 3;
    }
  }
  const transport = new StreamableHTTPClientTransport(target.endpoint, {
    requestInit: { headers: target.token ? { authorization: `Bearer ${target.token}` } : {} },
    ...(target.socketPath ? { fetch: unixFetch(target.socketPath) } : {}),
  });
  const client = new Client({ name: 'aiti-cli', version: bridgeVersion() });
  try {
    await client.connect(transport);
  } catch (error) {
    if (error instanceof SdkHttpError && error.status === 401) {
      out.stderr(
        `aiti-bridge call: the bridge at ${target.where} requires its token (401); add --mcp-auth (the agent token comes from --data-dir or AITI_AGENT_TOKEN)\n`,
      );
      return 2;
    }
    out.stderr(
      `aiti-bridge call: cannot reach the bridge at ${target.where} (${describeFailure(error)}; the address came from ${target.from}); start it with "aiti-bridge" or set AITI_BRIDGE_URL\n`,
    );
    return 3;
  }
  try {
    if (!tool) {
      const { tools } = await client.listTools();
      out.stdout(tools.map((t) => `${t.name.padEnd(18)} ${t.title ?? ''}`).join('\n') + '\n');
      return 0;
    }
    let result: CallToolResult;
    try {
      result = await client.callTool({ name: tool, arguments: args }, { timeout: 3_600_000 });
    } catch (error) {
      // the bridge refused the call (an unknown tool: its message says which one was meant): a line, no stack
      if (!(error instanceof ProtocolError)) throw error;
      out.stderr(`aiti-bridge call ${tool}: ${error.message}\n`);
      return 1;
    }
    const text = result.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('\n');
    if (result.isError) {
      out.stderr(text + '\n');
      return 1;
    }
    out.stdout(text + '\n');
    return 0;
  } finally {
    await transport.terminateSession().catch(() => undefined);
    await client.close();
  }
}

/** Bridge flags (`--data-dir <dir>`, `--mcp-auth` …) apart from the tool name and its JSON. */
function splitArgs(argv: string[]): { positional: string[]; flags: string[] } {
  const positional: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    flags.push(arg);
    const option = OPTIONS.find((o) => o.flag === arg);
    const next = argv[i + 1];
    if (option && takesValue(option) && next !== undefined) {
      flags.push(next);
      i++;
    }
  }
  return { positional, flags };
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error as Error).message;
}
