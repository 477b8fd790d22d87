import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolDefinition } from './tool.js';

/**
 * The tools/list entries of the registry. The JSON Schema is made the way the SDK's McpServer makes it (zod's
 * own converter, draft-7, the input side of each schema), so clients see the schemas they expect from an MCP server.
 */
export function listedTools(tools: readonly ToolDefinition[]): Tool[] {
  // converted once per registry, not per server: a stateless call makes a server for each request
  let listed = converted.get(tools);
  if (!listed) {
    listed = convert(tools);
    converted.set(tools, listed);
  }
  return listed;
}

const converted = new WeakMap<readonly ToolDefinition[], Tool[]>();

function convert(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
    annotations: tool.annotations,
    // calls answer directly; the experimental MCP tasks are not offered (the McpServer said the same)
    execution: { taskSupport: 'forbidden' },
  }));
}
