import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { findTool, TOOL_NAMES } from '../../bridge/mcp/tools/index.js';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText, type AgentTransportKind } from '../helpers/mcp.js';

/** The tools docs/TOOLS.md documents, read from its `## <tool>` headings (the file on disk, not a regeneration). */
function documentedTools(): string[] {
  const docs = readFileSync(new URL('../../docs/TOOLS.md', import.meta.url), 'utf8');
  return [...docs.matchAll(/^## ([a-z_]+)$/gm)].map((m) => m[1] ?? '');
}

describe.each<AgentTransportKind>(['streamable', 'stateless', 'stdio'])('over %s', (transport) => {
  it('tools/list returns every tool of the registry, the ones docs/TOOLS.md documents, with its schema, and calls work', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, { transport, clientName: `lister-${transport}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    expect(documentedTools()).toEqual([...TOOL_NAMES]);
    expect(TOOL_NAMES.length).toBeGreaterThanOrEqual(16);
    for (const tool of tools) {
      const shape = findTool(tool.name)?.inputSchema.shape ?? {};
      expect(Object.keys(tool.inputSchema.properties ?? {}).sort(), tool.name).toEqual(Object.keys(shape).sort());
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const exec = tools.find((t) => t.name === 'page_exec');
    expect(exec?.inputSchema.required).toEqual(['cmd']);

    const status = await callTool(client, 'bridge_status');
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ version: bridge.context.version });
    const bad = await callTool(client, 'page_logs', { limit: 0 });
    expect(bad.isError).toBe(true);
    expect(resultText(bad)).toContain('field "limit"');
  });
});
