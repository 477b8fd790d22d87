import type { z } from 'zod';
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import type { Agent } from '../agents/registry.js';
import type { Claimant } from '../agents/identity.js';
import type { BridgeContext } from '../context.js';
import { BridgeError } from '../errors.js';

/** What a tool handler gets besides its arguments: the bridge, the calling agent, and the call's own channel. */
export interface ToolCall {
  bridge: BridgeContext;
  /** the agent this MCP session speaks for */
  agent: Agent;
  /** aborted when the client cancels the call or its session goes away */
  signal: AbortSignal;
  /**
   * Sends notifications/progress on this call's stream; a no-op when the client gave no progress token.
   * Long waits (asks) call it every few seconds so clients with idle timeouts keep the call.
   */
  progress(message: string, progress: number, total?: number): Promise<void>;
  /**
   * Makes this MCP session speak for another agent id (aiti_hello): the session's link moves to that agent,
   * which is created when new. Stateless calls have no session: only this call changes. Resolves to the agent
   * once what moves with a renamed agent (its messages) is on disk.
   */
  bindAgent(agentId: string): Promise<Agent>;
  /** the caller asked for results' full JSON (STRUCTURED_RESULTS): a program, not a model, reads them */
  structured: boolean;
  /** how long the caller's MCP client waits for this call, when known (mcp/patience.ts): asks answer before that */
  patienceMs?: number;
  /** what the caller can show to speak for another agent id (aiti_hello checks it before bindAgent) */
  claimant: Omit<Claimant, 'agentKey'>;
}

/**
 * A tool's answer. The text content is written for a model: the summary line, then `text` (plain lines) or, without
 * it, `structured` as plain lines (mcp/text.ts). `structured` goes to structuredContent only for a caller that asked
 * for it (ToolCall.structured): a program.
 */
export interface ToolResult {
  structured: Record<string, unknown>;
  /** a one-line summary put first, when helpful */
  summary?: string;
  /** the body of the text content, as plain lines for a model; default: `structured` written as plain lines */
  text?: string;
  /** images the client should show the model (MCP image content), e.g. a screenshot; base64 data */
  images?: Array<{ data: string; mimeType: string }>;
}

declare const toolName: unique symbol;

/**
 * A tool's input schema, marked (in the types only) with the name of the tool it belongs to, so that
 * `defineTool({name: 'page_logs', inputSchema: <page_network's schema>})` fails to compile.
 */
export type ToolInputSchema<N extends string = string, S extends z.ZodObject = z.ZodObject> = S & {
  readonly [toolName]: N;
};

/** Marks `schema` as the input of tool `name` (no runtime change). */
export function toolInput<const N extends string, S extends z.ZodObject>(_name: N, schema: S): ToolInputSchema<N, S> {
  return schema as ToolInputSchema<N, S>;
}

/**
 * One MCP tool (one per file, Playwright-MCP style): its input schema lives beside its handler. Handlers never
 * format errors: they throw, and the one dispatcher turns the error (or a zod failure naming the field) into an
 * `isError` result.
 */
export interface ToolDefinition<N extends string = string, S extends z.ZodObject = z.ZodObject> {
  name: N;
  title: string;
  description: string;
  /** the schema of this tool and no other (see ToolInputSchema) */
  inputSchema: ToolInputSchema<NoInfer<N>, S>;
  /** what a client may assume (MCP tool annotations); every tool says whether it only reads and reaches a page */
  annotations: ToolAnnotations & Required<Pick<ToolAnnotations, 'readOnlyHint' | 'openWorldHint'>>;
  handle(args: z.infer<S>, call: ToolCall): Promise<ToolResult>;
  /**
   * How to ask this tool for less, said when an answer is cut to its budget (mcp/answer-cap.ts); tools that page by
   * bytes themselves (aiti_inbox, page_logs, page_network) never reach it.
   */
  narrower?: string;
}

/** Keeps the name and the schema's type through the flat registry array. */
export function defineTool<const N extends string, S extends z.ZodObject>(
  tool: ToolDefinition<N, S>,
): ToolDefinition<N, S> {
  return tool;
}

/**
 * An error whose message is written for the agent (what was wrong, and what to do next); one of the bridge's own
 * errors, so the dispatcher reports it as expected.
 */
export class ToolError extends BridgeError {}
