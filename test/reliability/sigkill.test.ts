import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { MessagesAnswer, PushAnswer } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { connectAgent, type AgentTransportKind } from '../helpers/mcp.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { waitFor } from '../helpers/wait.js';
import { SturdyPage } from './sturdy-page.js';

/** A client-side limit on each call, as agents' MCP clients have; a call the bridge never answers ends there. */
const CALL_TIMEOUT_MS = 6000;

/**
 * SIGKILL in the middle of page-command and push traffic. test/inbox/crash.test.ts proves in detail that every
 * acknowledged push, read and ack survives a kill; this test puts page commands from agents on both transports
 * (Streamable HTTP and the stdio shim) into the same traffic: no result reaches the wrong call up to the kill,
 * every caller gets an answer or an error afterwards (none hangs), and every push the bridge acknowledged meanwhile
 * is in the history after the restart.
 */
describe('SIGKILL of the bridge mid-traffic', () => {
  it('misroutes no page result, leaves no caller hanging, and loses no acknowledged push', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const pages = await Promise.all(Array.from({ length: 4 }, () => SturdyPage.connect(first.url)));
    const kinds: AgentTransportKind[] = ['streamable', 'streamable', 'stdio'];
    const agents = await Promise.all(
      kinds.map((transport, i) => connectAgent(first.url, { transport, clientName: `agent-${i}` })),
    );

    let killed = false;
    const outcomes = { ok: 0, misrouted: [] as string[], failedBeforeKill: [] as string[], endedAfterKill: 0 };
    const drive = async (agent: Client, a: number) => {
      for (let i = 0; ; i++) {
        const page = pages[(a + i) % pages.length] as SturdyPage;
        const target = `css=#a${a}-${i}`;
        const sentBeforeKill = !killed;
        let result: CallToolResult;
        try {
          result = (await agent.callTool(
            { name: 'page_exec', arguments: { pageId: page.pageId, cmd: 'DOM.getText', args: { target } } },
            undefined,
            { timeout: CALL_TIMEOUT_MS },
          )) as CallToolResult;
        } catch (error) {
          if (!killed) outcomes.failedBeforeKill.push(String(error));
          else outcomes.endedAfterKill++;
          return;
        }
        if (result.isError) {
          if (!killed) outcomes.failedBeforeKill.push(JSON.stringify(result.content));
          else outcomes.endedAfterKill++;
          return;
        }
        const got = result.structuredContent as { result?: { answeredBy?: string; args?: { target?: string } } };
        if (got.result?.answeredBy === page.pageId && got.result.args?.target === target) outcomes.ok++;
        else outcomes.misrouted.push(`${target} → ${JSON.stringify(got)}`);
        if (killed && !sentBeforeKill) return;
      }
    };
    const acknowledged: string[] = [];
    const push = async (w: number) => {
      for (let i = 0; !killed; i++) {
        try {
          const res = await http(`${first.url}/bridge/push`, {
            token: CHILD_TOKEN,
            body: { to: `agent-${i % kinds.length}`, text: `push ${w}.${i}` },
          });
          if (res.status === 200) acknowledged.push(...(res.body as PushAnswer).delivered.map((d) => d.msgId));
        } catch {
          return; // the bridge is gone
        }
      }
    };
    const traffic = [...agents.map(drive), push(0), push(1)];
    const enough = Date.now() + 20_000;
    while (
      (outcomes.ok < 150 || acknowledged.length < 100) &&
      Date.now() < enough &&
      !outcomes.failedBeforeKill.length
    ) {
      await new Promise((r) => setTimeout(r, 10));
    }
    killed = true;
    await kill(first.child);

    // the callers' own limit ends a call the dead bridge can no longer answer; nothing waits beyond it
    const hang = new Promise<string>((resolve) => setTimeout(() => resolve('a caller hangs'), CALL_TIMEOUT_MS + 4000));
    expect(await Promise.race([Promise.all(traffic).then(() => 'all ended'), hang])).toBe('all ended');
    expect(outcomes.failedBeforeKill).toEqual([]);
    expect(outcomes.ok).toBeGreaterThanOrEqual(150);
    expect(outcomes.misrouted).toEqual([]);
    expect(outcomes.endedAfterKill).toBe(kinds.length);

    const second = await spawnBridge(dataDir);
    const stored = new Set<string>();
    for (const agentId of kinds.map((_, i) => `agent-${i}`)) {
      const res = await http(`${second.url}/bridge/messages?agentId=${agentId}&limit=1000`, { token: CHILD_TOKEN });
      (res.body as MessagesAnswer).messages.forEach((m) => stored.add(m.id));
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(100);
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 60_000);

  it('answers a call in flight through the stdio shim with an error at once, not after the client timeout', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const page = await SturdyPage.connect(first.url, { silent: true });
    const agent = await connectAgent(first.url, { transport: 'stdio', clientName: 'shim-agent' });
    const call = agent.callTool({ name: 'page_exec', arguments: { cmd: 'DOM.getText', args: {} } }, undefined, {
      timeout: 60_000,
    });
    call.catch(() => undefined);
    // the page holds the command, so the call is still running when the bridge dies
    await waitFor(() => page.received === 1, 10_000, 'the command to reach the page');
    await kill(first.child);
    const started = Date.now();
    await expect(call).rejects.toThrow(/connection to the bridge broke while this call was running.*call again/);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});
