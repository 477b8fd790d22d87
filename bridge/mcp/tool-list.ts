import { z } from 'zod';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from './tool.js';

/**
 * The tools/list entries of the registry. The JSON Schema is made the way the SDK's McpServer made it (zod's
 * own converter, draft-7, the input side of each schema), so clients see the same schemas as before.
 */
export function listedTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' }) as Tool['inputSchema'],
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
    // calls answer directly; the experimental MCP tasks are not offered (the McpServer said the same)
    execution: { taskSupport: 'forbidden' },
  }));
}
