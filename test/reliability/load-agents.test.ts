import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { InboxResult, PushAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent, type AgentTransportKind } from '../helpers/mcp.js';
import { SturdyPage } from './sturdy-page.js';

const PAGES = 24;

/** A stateless client (no session: every POST stands alone) that names its agent with the X-Aiti-Agent header. */
function statelessAgent(bridgeUrl: string, agentId: string): Promise<Client> {
  return connectAgent(bridgeUrl, { transport: 'stateless', clientName: agentId, headers: { 'x-aiti-agent': agentId } });
}
const RUN_MS = 4000;
/** the least traffic the checks need, however slow the machine: the run goes on past RUN_MS until it is reached */
const MIN_CALLS_PER_AGENT = 4;
const MIN_PUSHES = 51;

/**
 * Many pages and many agents at once, for a bounded time: every agent drives pages chosen in turn while the
 * human pushes messages to agents chosen in turn. Every page result must come back to the call that asked for it,
 * and every acknowledged push must reach exactly the agent it was addressed to — none lost, none misdelivered.
 */
describe('load: many pages and agents at once', () => {
  it('routes every page result and every push to its own agent, for a few seconds of mixed traffic', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 20_000 });
    const pages = await Promise.all(Array.from({ length: PAGES }, () => SturdyPage.connect(bridge.url)));
    const kinds: AgentTransportKind[] = [
      'streamable',
      'streamable',
      'streamable',
      'streamable',
      'streamable',
      'streamable',
      'stateless',
      'stdio',
    ];
    const agents: Array<{ id: string; client: Client }> = [];
    for (const [i, transport] of kinds.entries()) {
      const id = `load-${i}`;
      const client =
        transport === 'stateless'
          ? await statelessAgent(bridge.url, id)
          : await connectAgent(bridge.url, { transport, clientName: id });
      agents.push({ id, client });
    }
    const until = Date.now() + RUN_MS;
    const misrouted: string[] = [];
    const failed: string[] = [];
    const calls = new Map<string, number>();

    const drive = async ({ id, client }: { id: string; client: Client }, a: number) => {
      for (let i = 0; Date.now() < until || ((calls.get(id) ?? 0) < MIN_CALLS_PER_AGENT && !failed.length); i++) {
        const page = pages[(a * 7 + i * 5) % PAGES] as SturdyPage;
        const target = `css=#${id}-${i}`;
        const result = (await client.callTool(
          { name: 'page_exec', arguments: { pageId: page.pageId, cmd: 'DOM.getText', args: { target } } },
          undefined,
          { timeout: 20_000 },
        )) as CallToolResult;
        if (result.isError) {
          failed.push(`${id}: ${JSON.stringify(result.content)}`);
          continue;
        }
        const got = result.structuredContent as { result?: { answeredBy?: string; args?: { target?: string } } };
        if (got.result?.answeredBy !== page.pageId || got.result.args?.target !== target) {
          misrouted.push(`${target} on ${page.pageId} → ${JSON.stringify(got.result)}`);
        }
        calls.set(id, (calls.get(id) ?? 0) + 1);
      }
    };
    const pushed = new Map<string, string>(); // msgId → the agent it was addressed to
    const push = async (w: number) => {
      for (let i = 0; Date.now() < until || pushed.size < MIN_PUSHES; i++) {
        const to = agents[(w + i) % agents.length]?.id ?? '';
        const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to, text: `${w}.${i}` } });
        expect(res.status).toBe(200);
        for (const d of (res.body as PushAnswer).delivered) {
          expect(d.agentId).toBe(to);
          pushed.set(d.msgId, to);
        }
      }
    };
    await Promise.all([...agents.map(drive), push(0), push(1)]);

    expect(failed).toEqual([]);
    expect(misrouted).toEqual([]);
    for (const { id } of agents)
      expect(calls.get(id) ?? 0, `page calls of ${id}`).toBeGreaterThanOrEqual(MIN_CALLS_PER_AGENT);
    expect(pushed.size).toBeGreaterThanOrEqual(MIN_PUSHES);
    expect(bridge.context.requests.size).toBe(0);

    // every agent reads its inbox: exactly its own pushes, each once (an ack call also returns the next pending ones)
    const received = new Map<string, string>();
    for (const { id, client } of agents) {
      let args: { ack?: string[] } = {};
      for (;;) {
        const result = (await client.callTool({ name: 'aiti_inbox', arguments: args })) as CallToolResult;
        const { messages } = result.structuredContent as InboxResult;
        for (const m of messages) {
          expect(received.has(m.id), `message ${m.id} read twice`).toBe(false);
          received.set(m.id, id);
        }
        if (!messages.length) break;
        args = { ack: messages.map((m) => m.id) };
      }
    }
    const lost = [...pushed.keys()].filter((msgId) => !received.has(msgId));
    const elsewhere = [...pushed].filter(([msgId, to]) => received.has(msgId) && received.get(msgId) !== to);
    expect(lost).toEqual([]);
    expect(elsewhere).toEqual([]);
    for (const { id } of agents) {
      const sent = [...pushed.values()].filter((to) => to === id).length;
      expect(bridge.context.inbox.counts(id)).toEqual({ pending: 0, delivered: 0, consumed: sent });
    }
  }, 45_000);
});
