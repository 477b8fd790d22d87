import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { InboxResult } from '../../bridge/protocol/index.js';
import { tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { callTool, connectAgent, resultText, type AgentTransportKind } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { SturdyPage } from '../reliability/sturdy-page.js';
import { windowState } from '../helpers/window.js';

const openAsks = async (url: string) => (await windowState(url, CHILD_TOKEN)).asks.length;

/** Far longer than a restart takes: a call still open when it runs out is a hang. */
const CALL_TIMEOUT_MS = 25_000;

/** How a call in flight when the bridge dies ends: its text, or the client's own error, and after how long. */
async function settle(call: Promise<CallToolResult>, killedAt: number): Promise<{ text: string; ms: number }> {
  try {
    const result = await call;
    return { text: `${result.isError ? 'tool error: ' : ''}${resultText(result)}`, ms: performance.now() - killedAt };
  } catch (error) {
    return { text: `rejected: ${(error as Error).message}`, ms: performance.now() - killedAt };
  }
}

describe('an agent whose bridge is killed and comes back on its port', () => {
  for (const transport of ['streamable', 'stdio'] as AgentTransportKind[]) {
    it(`over ${transport}: a question to the human in flight ends soon, saying why, and the same client goes on`, async () => {
      const dataDir = tempDir();
      const first = await spawnBridge(dataDir);
      const agent = await connectAgent(first.url, { transport, clientName: `restart-${transport}` });
      const call = agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?' } }, undefined, {
        timeout: CALL_TIMEOUT_MS,
      }) as Promise<CallToolResult>;
      call.catch(() => undefined);
      await waitFor(async () => (await openAsks(first.url)) === 1, 10_000, 'the card open');
      await kill(first.child);
      const killedAt = performance.now();
      await spawnBridge(dataDir, { port: first.port });
      const ended = await settle(call, killedAt);
      expect(ended.text).toMatch(/restarted|broke/);
      expect(ended.ms).toBeLessThan(CALL_TIMEOUT_MS - 5000);
      // the same client, without reconnecting by hand: its next call works, and the lost ask is in its inbox
      const inbox = await callTool(agent, 'aiti_inbox');
      expect(inbox.isError ?? false, resultText(inbox)).toBe(false);
      const answers = (inbox.structuredContent as InboxResult).messages.filter((m) => m.kind === 'user_answer');
      expect(answers.map((m) => m.payload)).toContainEqual(
        expect.objectContaining({ status: 'cancelled', text: 'the bridge restarted' }),
      );
    }, 60_000);

    it(`over ${transport}: a page command in flight ends soon, saying why`, async () => {
      const dataDir = tempDir();
      const first = await spawnBridge(dataDir);
      const page = await SturdyPage.connect(first.url, { silent: true });
      // a call still waiting past its first 20 ms gets an event stream; one killed sooner fails at once in the
      // client ("fetch failed"), which is not what this test is about
      let streams = 0;
      const agent = await connectAgent(first.url, {
        transport,
        clientName: `page-${transport}`,
        onPostResponse: (type) => void (type.startsWith('text/event-stream') && streams++),
      });
      const call = agent.callTool(
        { name: 'page_exec', arguments: { pageId: page.pageId, cmd: 'DOM.getText', args: {} } },
        undefined,
        { timeout: CALL_TIMEOUT_MS },
      ) as Promise<CallToolResult>;
      call.catch(() => undefined);
      await waitFor(() => page.received === 1, 10_000, 'the command reached the page');
      // over stdio the shim holds the call, whenever the bridge dies
      if (transport === 'streamable') await waitFor(() => streams === 1, 10_000, 'the call answered as a stream');
      await kill(first.child);
      const killedAt = performance.now();
      await spawnBridge(dataDir, { port: first.port });
      const ended = await settle(call, killedAt);
      expect(ended.text).toMatch(/restarted|broke/);
      expect(ended.ms).toBeLessThan(CALL_TIMEOUT_MS - 5000);
      expect((await callTool(agent, 'bridge_status')).isError ?? false).toBe(false);
    }, 60_000);
  }
});
