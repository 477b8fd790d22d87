import { readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../bridge/mcp/tool.js';
import { TOOLS } from '../../bridge/mcp/tools/index.js';

const toolsDir = new URL('../../bridge/mcp/tools/', import.meta.url);

function isTool(value: unknown): value is ToolDefinition {
  if (!value || typeof value !== 'object') return false;
  const tool = value as Partial<ToolDefinition>;
  return typeof tool.name === 'string' && tool.inputSchema instanceof z.ZodObject && typeof tool.handle === 'function';
}

/** The tools each file of bridge/mcp/tools/ exports, by file, for the files that call defineTool. */
async function definedTools(): Promise<Array<{ file: string; tools: ToolDefinition[] }>> {
  const files = readdirSync(toolsDir).filter((name) => name.endsWith('.ts'));
  const defining = files.filter((name) => readFileSync(new URL(name, toolsDir), 'utf8').includes('defineTool('));
  return Promise.all(
    defining.map(async (file) => {
      const module = (await import(new URL(file, toolsDir).href)) as Record<string, unknown>;
      return { file, tools: Object.values(module).filter(isTool) };
    }),
  );
}

describe('the tool registry (bridge/mcp/tools/index.ts)', () => {
  it('lists every tool a file of bridge/mcp/tools/ defines, so none is silently missing from tools/list and the docs', async () => {
    const defined = await definedTools();
    expect(defined.length).toBeGreaterThanOrEqual(16);
    const registered = new Set<ToolDefinition>(TOOLS);
    for (const { file, tools } of defined) {
      expect(tools.length, `bridge/mcp/tools/${file} calls defineTool but exports no tool`).toBeGreaterThan(0);
      for (const tool of tools)
        expect(registered.has(tool), `bridge/mcp/tools/${file} defines ${tool.name}, which TOOLS does not list`).toBe(
          true,
        );
    }
    expect(defined.flatMap((d) => d.tools)).toHaveLength(TOOLS.length);
  });

  it('has a unique name and an object schema for every tool', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const tool of TOOLS) expect(tool.inputSchema, tool.name).toBeInstanceOf(z.ZodObject);
  });
});
