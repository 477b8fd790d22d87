import type { Bridge } from '../../bridge/bridge.js';
import type { LimitLine } from '../../bridge/limits.js';
import { callTool, connectAgent } from './mcp.js';

/** The `limits` section of bridge_status, as a new agent reads it (its session closed again). */
export async function limitsOf(bridge: Bridge): Promise<Record<string, LimitLine>> {
  const agent = await connectAgent(bridge.url, { clientName: 'status-reader' });
  const result = await callTool(agent, 'bridge_status');
  await agent.close();
  return (result.structuredContent as { limits: Record<string, LimitLine> }).limits;
}
