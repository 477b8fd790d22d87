import { z } from 'zod';
import { AgentId, strictArgs, SubscribableEvent } from '../../protocol/index.js';
import { claimProblem } from '../../agents/identity.js';
import { connectedList } from '../resolve-page.js';
import { defineTool, toolInput, ToolError } from '../tool.js';
import { pageId } from './args.js';
import type { Agent } from '../../agents/registry.js';

/** Agents told the how-to already: it is said once, not on every hello. */
const told = new WeakSet<Agent>();

const HOW_TO = [
  'Messages from the human (and async answers, and page events you subscribed to) wait in your inbox; every tool result ends with a one-line notice while some are unread.',
  'Call aiti_inbox to read them (they become "delivered"), then aiti_inbox {"ack":[ids]} once handled (they become "consumed").',
  "Your client's own name (the default agentId) is yours again after a reconnect or a bridge restart, with its inbox. A chosen agentId comes with an agentKey, returned once: keep it and pass it with aiti_hello to take that id back.",
  "Another live agent's id, or another agent's inbox, cannot be taken without its agentKey or the human's token.",
  'Page tools use the page bound here when you leave out pageId.',
];

export const aitiHello = defineTool({
  name: 'aiti_hello',
  title: 'Introduce yourself',
  description:
    "Binds your agent id (default: your client's name, kept across reconnects and restarts), a default page, and page events sent to your inbox (subEvents: page_error, page_log, page_network; [] unsubscribes). A new agentId returns an agentKey once: pass both to take the id back later.",
  inputSchema: toolInput(
    'aiti_hello',
    strictArgs({
      agentId: AgentId.optional(),
      agentKey: z.string().min(1).max(256).optional().describe('from an earlier aiti_hello: takes agentId back'),
      pageId,
      subEvents: z.array(SubscribableEvent).optional(),
    }),
  ),
  annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
  async handle({ agentId, agentKey, pageId, subEvents }, call) {
    const { bridge } = call;
    let issuedKey: string | undefined;
    if (agentId && agentId !== call.agent.agentId) {
      const problem = claimProblem(bridge, agentId, {
        ...call.claimant,
        ...(agentKey !== undefined ? { agentKey } : {}),
      });
      if (problem) throw new ToolError(problem, agentKey !== undefined ? 'agentKey' : 'agentId');
      issuedKey = await bridge.claims.issueKey(agentId, call.claimant.stateless ? 'stateless' : 'session');
    }
    if (pageId !== undefined && !bridge.pages.get(pageId)) {
      throw new ToolError(`pageId "${pageId}" is not connected; ${connectedList(call)}`, 'pageId');
    }
    const agent = agentId ? await call.bindAgent(agentId) : call.agent;
    bridge.agents.update(agent, {
      ...(pageId !== undefined ? { pageId } : {}),
      ...(subEvents ? { subEvents } : {}),
    });
    const pages = bridge.pages.operable().map((p) => ({
      pageId: p.pageId,
      url: p.url,
      ...(p.title ? { title: p.title } : {}),
    }));
    // what the agent's next aiti_inbox hands it: the messages not acknowledged yet, handed out before or not
    const counts = bridge.inbox.counts(agent.agentId);
    const pending = counts.pending + counts.delivered;
    const structured = {
      agentId: agent.agentId,
      ...(issuedKey ? { agentKey: issuedKey } : {}),
      pending,
      ...(agent.pageId ? { pageId: agent.pageId } : {}),
      subEvents: [...agent.subEvents],
      pages,
      howTo: HOW_TO,
    };
    const summary = `You are agent "${agent.agentId}"${issuedKey ? ' (keep agentKey to take this id back later)' : ''}; ${pending} message(s) not acknowledged yet${pending ? ' — call aiti_inbox' : ''}; ${pages.length} page(s) connected${agent.pageId ? `, default page ${agent.pageId}` : ''}.`;
    const firstHello = !told.has(agent);
    told.add(agent);
    const text = [
      ...(issuedKey
        ? [
            `agentKey: ${issuedKey} (shown once: pass it with aiti_hello {agentId, agentKey} to take this id back later)`,
          ]
        : []),
      ...pages.map((p) => `  ${p.pageId} ${p.url}${p.title ? ` ${JSON.stringify(p.title)}` : ''}`),
      ...(agent.subEvents.size ? [`subscribed to: ${[...agent.subEvents].join(', ')}`] : []),
      ...(firstHello ? HOW_TO : []),
    ].join('\n');
    return { structured, summary, text };
  },
});
