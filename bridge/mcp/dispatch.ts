import { ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { closest, describeZodError } from '../protocol/index.js';
import { BridgeError } from '../errors.js';
import { capAnswer } from './answer-cap.js';
import { inboxNotice } from './notice.js';
import { plainText } from './text.js';
import type { ToolCall, ToolDefinition, ToolResult } from './tool.js';

/**
 * An error the SDK's server answers as a JSON-RPC error with this code and exactly this message. (The SDK's own
 * McpError puts "MCP error <code>: " into its message, and every client's McpError adds it again on receipt, so
 * agents read "MCP error -32602: MCP error -32602: …".)
 */
class JsonRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one dispatcher every MCP transport uses: validates the arguments with the tool's zod schema, runs the
 * handler, and turns whatever it throws into an `isError` result written for the agent. Results are plain lines
 * for the model (plus the unread-inbox notice line), and the structured value for a caller that asked for it.
 */
export async function dispatch(
  tools: readonly ToolDefinition[],
  name: string,
  rawArgs: unknown,
  call: ToolCall,
): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    // A name not in tools/list is a protocol error (JSON-RPC -32602, as the MCP spec asks), not a tool's answer.
    const names = tools.map((t) => t.name);
    const near = closest(name, names);
    throw new JsonRpcError(
      ProtocolErrorCode.InvalidParams,
      `unknown tool "${name}"${near ? ` (did you mean "${near}"?)` : ''}; the tools are: ${names.join(', ')}`,
    );
  }
  const parsed = tool.inputSchema.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    const { message, field } = describeZodError(parsed.error);
    return withNotice(failure(`${name}: ${message}`, field, call), call);
  }
  try {
    return withNotice(toCallResult(capAnswer(await tool.handle(parsed.data, call), tool, call.structured), call), call);
  } catch (error) {
    // the one list of expected errors: the bridge's own (ToolError, PageCommandError and the domain's are all
    // BridgeErrors); anything else is a bug, logged, and still answered as a tool error the agent can read
    const expected = error instanceof BridgeError;
    if (!expected) call.bridge.log.child('mcp').warn(`tool ${name} failed:`, error);
    const message = error instanceof Error ? error.message : String(error);
    return withNotice(failure(`${name}: ${message}`, expected ? error.field : undefined, call), call);
  }
}

/**
 * How a tool's answer reads to the client, the one place results are formatted: the text is written for a model
 * (the summary, then plain lines); structuredContent carries the JSON only to a caller that asked for it, because
 * Claude Code, Codex and VS Code show a result's structuredContent to the model in place of its text.
 */
function toCallResult(result: ToolResult, call: ToolCall): CallToolResult {
  const body = result.text ?? plainText(result.structured);
  return {
    content: [
      { type: 'text', text: [result.summary, body].filter(Boolean).join('\n') },
      ...(result.images ?? []).map((image) => ({ type: 'image' as const, ...image })),
    ],
    ...(call.structured ? { structuredContent: result.structured } : {}),
  };
}

function failure(message: string, field: string | undefined, call: ToolCall): CallToolResult {
  return {
    content: [{ type: 'text', text: message }],
    ...(call.structured ? { structuredContent: { error: message, ...(field ? { field } : {}) } } : {}),
    isError: true,
  };
}

function withNotice(result: CallToolResult, call: ToolCall): CallToolResult {
  let notice: string | undefined;
  try {
    notice = inboxNotice(call.bridge, call.agent);
  } catch (error) {
    call.bridge.log.child('mcp').warn('inbox notice failed:', error);
  }
  if (notice) result.content.push({ type: 'text', text: notice });
  return result;
}
