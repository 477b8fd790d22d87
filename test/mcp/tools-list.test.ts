import { describe, expect, it } from 'vitest';
import { TOOL_NAMES, ToolInputs } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText, type AgentTransportKind } from '../helpers/mcp.js';

const DESIGN_TOOLS = [
  'page_exec',
  'page_snapshot',
  'bridge_status',
  'page_logs',
  'page_network',
  'self_ui',
  'form_fill',
  'file_stat',
  'user_pick_element',
  'user_confirm',
  'user_choose',
  'user_input',
  'user_presence',
  'user_notify',
  'aiti_hello',
  'aiti_inbox',
];

describe.each<AgentTransportKind>(['streamable', 'stateless', 'stdio'])('over %s', (transport) => {
  it('tools/list returns every tool of the design with its schema, and calls work', async () => {
    const bridge = await startBridge();
    const client = await connectAgent(bridge.url, { transport, clientName: `lister-${transport}` });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...DESIGN_TOOLS].sort());
    expect([...TOOL_NAMES].sort()).toEqual([...DESIGN_TOOLS].sort());
    for (const tool of tools) {
      const shape = ToolInputs[tool.name as keyof typeof ToolInputs].shape;
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
