import { strictArgs } from '../../protocol/index.js';
import { agentRows } from '../../window/state.js';
import { isConnected } from '../../pages/registry.js';
import { defineTool, toolInput } from '../tool.js';

export const bridgeStatus = defineTool({
  name: 'bridge_status',
  title: 'Bridge status',
  description:
    'The pages you can drive (pageId, url, frames), pages waiting for the human to allow them, agents, open asks and limits. Call it first, and when a tool says a page is not connected.',
  inputSchema: toolInput('bridge_status', strictArgs({})),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handle(_args, call) {
    const { bridge, agent } = call;
    const pages = bridge.pages.all();
    const row = (p: (typeof pages)[number]) => ({
      pageId: p.pageId,
      url: p.url,
      ...(p.title ? { title: p.title } : {}),
      origin: p.origin,
      frameworks: p.frameworks,
      frames: [...p.frames.values()].filter((f) => f.stream?.isOpen).map((f) => f.frameId),
    });
    const operable = bridge.pages.operable();
    const agents = agentRows(bridge).map((a) => ({
      agentId: a.agentId,
      online: a.online,
      transport: a.transport,
      ...(a.client ? { client: a.client } : {}),
      ...(a.pageId ? { pageId: a.pageId } : {}),
      unread: a.unread,
      lastSeen: a.lastSeen,
    }));
    const structured = {
      version: bridge.version,
      uptimeMs: Date.now() - bridge.startedAt,
      you: agent.agentId,
      ...(agent.pageId ? { boundPageId: agent.pageId } : {}),
      pages: operable.map(row),
      heldPages: pages.filter((p) => isConnected(p) && !bridge.pages.isOperable(p)).map(row),
      disconnectedPages: pages.filter((p) => !isConnected(p) && bridge.pages.isOperable(p)).map((p) => p.pageId),
      agents: {
        online: agents.filter((a) => a.online),
        offline: agents.filter((a) => !a.online),
      },
      /** page events that went nowhere: from held pages, or from legacy pages kept out of inboxes and the editor */
      droppedPageEvents: bridge.pageEvents.dropped(),
      /** command results taken from the pages' result sockets and from POSTs, and repeats of results already taken */
      pageResults: { ...bridge.requests.received },
      openAsks: bridge.asks.views().length,
      humanAway: bridge.asks.away,
      limits: bridge.limits.report(),
      /** whether the journal's last writes reached the disk; a problem says what failed and what to do */
      storage: bridge.inbox.storage(),
    };
    const summary = `${operable.length} page(s) to drive: ${operable.map((p) => p.pageId).join(', ') || 'none'}; ${structured.agents.online.length} agent(s) online; ${structured.openAsks} open ask(s)`;
    const pageLine = (p: ReturnType<typeof row>) =>
      `  ${p.pageId} ${p.url}${p.title ? ` ${JSON.stringify(p.title)}` : ''}${p.frameworks.length ? ` [${p.frameworks.join(', ')}]` : ''}${p.frames.length > 1 ? ` frames: ${p.frames.join(', ')}` : ''}`;
    const agentList = (list: typeof agents) =>
      list.map((a) => `${a.agentId} (${a.transport}${a.unread ? `, ${a.unread} unread` : ''})`).join(', ') || 'none';
    const text = [
      `you: ${agent.agentId}${agent.pageId ? `, bound to page ${agent.pageId}` : ''}`,
      ...(structured.pages.length ? ['pages:', ...structured.pages.map(pageLine)] : []),
      ...(structured.heldPages.length
        ? ['held until the human allows their origin:', ...structured.heldPages.map(pageLine)]
        : []),
      ...(structured.disconnectedPages.length ? [`disconnected: ${structured.disconnectedPages.join(', ')}`] : []),
      `agents online: ${agentList(structured.agents.online)}`,
      ...(structured.agents.offline.length ? [`agents offline: ${agentList(structured.agents.offline)}`] : []),
      ...limitLines(structured.limits),
      ...(structured.storage.problem ? [`disk: ${structured.storage.problem}`] : []),
      `human: ${structured.humanAway ? 'away' : 'present'}; bridge ${bridge.version}, up ${Math.round(structured.uptimeMs / 1000)} s`,
    ].join('\n');
    return { structured, summary, text };
  },
});

/** One line naming the limits that refused or dropped something (the numbers are in structuredContent). */
function limitLines(limits: Record<string, { limit: number; refused: number }>): string[] {
  const hit = Object.entries(limits).filter(([, line]) => line.refused > 0);
  if (!hit.length) return [];
  return [
    `limits reached: ${hit.map(([name, line]) => `${name} (limit ${line.limit}, ${line.refused} refused)`).join(', ')}`,
  ];
}
