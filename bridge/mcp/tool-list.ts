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
    inputSchema: forModels(z.toJSONSchema(tool.inputSchema, { target: 'draft-7', io: 'input' })) as Tool['inputSchema'],
    annotations: tool.annotations,
    // calls answer directly; the experimental MCP tasks are not offered (the McpServer said the same)
    execution: { taskSupport: 'forbidden' },
  }));
}

/**
 * Limits a model does not write better for knowing (lengths, patterns, ranges): the dispatcher checks each against
 * the zod schema and names the limit in its error. Every client sends every tool's schema with every turn.
 */
const CHECKED_AT_CALL = new Set([
  '$schema',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'propertyNames',
]);

/**
 * Parameters several tools share: the server instructions say once what they mean (SERVER_INSTRUCTIONS), and
 * docs/TOOLS.md keeps each tool's full wording.
 */
const SHARED = new Set(['pageId', 'frameId', 'async', 'timeoutMs', 'wait']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A tool's JSON Schema as it is worth a model's reading (see CHECKED_AT_CALL and SHARED). */
export function forModels(schema: unknown): Json {
  return strip(schema as Json, false);
}

function strip(value: Json, isProperties: boolean): Json {
  if (Array.isArray(value)) return value.map((item) => strip(item, false));
  if (!value || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, item] of Object.entries(value)) {
    if (isProperties) {
      out[key] = SHARED.has(key) ? withoutDescription(strip(item, false)) : strip(item, false);
      continue;
    }
    // any JSON value (page_exec's args, checked per command): a recursive definition says nothing more
    if (key === 'definitions') continue;
    if (CHECKED_AT_CALL.has(key)) continue;
    if (key === 'additionalProperties' && item && typeof item === 'object' && '$ref' in item) {
      out[key] = {};
      continue;
    }
    out[key] = strip(item, key === 'properties');
  }
  return out;
}

function withoutDescription(value: Json): Json {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const { description: _description, ...rest } = value;
  return rest;
}
