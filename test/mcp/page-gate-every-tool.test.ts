import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import {
  PAGE_COMMAND_NAMES,
  PUBLIC_COMMANDS,
  pageCommand,
  type AskView,
  type Json,
  type PageCommandName,
} from '../../bridge/protocol/index.js';
import { onCleanup, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

/**
 * A call of the tool that sends each command, and whether that tool fails when the command may not run (page_logs
 * answers with what the bridge holds; a picker's closing is the bridge's own step after the call returned).
 */
const SENDS: Record<string, { tool: string; args: (pageId: string) => Record<string, Json>; fails: boolean }> = {
  'DOM.getText': { tool: 'page_exec', args: () => ({ cmd: 'DOM.getText', args: {} }), fails: true },
  'Snapshot.take': { tool: 'page_snapshot', args: () => ({}), fails: true },
  'UI.scan': { tool: 'self_ui', args: () => ({}), fails: true },
  'UI.fill': { tool: 'form_fill', args: () => ({ fields: { Name: 'Ada' } }), fails: true },
  'User.pick': { tool: 'user_pick_element', args: () => ({ prompt: 'which one?' }), fails: false },
  // the page answers the pick at once with no element, so the ask ends and the picker is closed
  'User.pickEnd': { tool: 'user_pick_element', args: () => ({ prompt: 'which one?' }), fails: false },
  'User.notify': { tool: 'user_notify', args: (pageId) => ({ pageId, body: 'build finished' }), fails: true },
  'Watch.flush': { tool: 'page_logs', args: () => ({}), fails: false },
};

/** A page that records every command it received. */
async function world() {
  const bridge = await startBridge();
  const window = await windowClient(bridge);
  const ran: string[] = [];
  const page = await ScriptedPage.connect(bridge.url, {
    url: 'http://localhost:3000/app',
    handler: (cmd) => {
      ran.push(cmd);
      return { ok: true };
    },
  });
  const agent = await connectAgent(bridge.url, { clientName: 'gated-agent' });
  const gateCards = () =>
    window.stream.events
      .filter((e) => e.event === 'ask')
      .map((e) => e.data as AskView)
      .filter((ask) => ask.kind === 'page_command');
  return { window, page, ran, agent, gateCards };
}

/** Marks `cmd` as running script in the page until the test ends: its descriptor alone now says it is dangerous. */
function flagDangerous(cmd: PageCommandName): void {
  const descriptor = pageCommand(cmd);
  const was = descriptor.danger;
  descriptor.danger = 'script';
  onCleanup(() => {
    descriptor.danger = was;
  });
}

/** A round trip to the page after everything sent before it (commands reach the page in order). */
async function barrier(agent: Client, ran: string[]): Promise<void> {
  const seen = ran.length;
  await callTool(agent, 'page_exec', { cmd: 'DOM.getHTML', args: {} });
  await waitFor(() => ran.length > seen, 10_000, 'the barrier command to reach the page');
}

describe('a page command flagged dangerous asks the human from every tool that sends it', () => {
  it('the table names a tool call for every command page_exec does not send itself', () => {
    const dedicated = PAGE_COMMAND_NAMES.filter((name) => !PUBLIC_COMMANDS.includes(name));
    expect(Object.keys(SENDS).sort()).toEqual([...dedicated, 'DOM.getText'].sort());
    for (const [cmd, { tool }] of Object.entries(SENDS))
      expect(tool, cmd).toBe(cmd === 'DOM.getText' ? 'page_exec' : pageCommand(cmd as PageCommandName).tool);
  });

  for (const [cmd, send] of Object.entries(SENDS)) {
    it(`${cmd} through ${send.tool}: with the flag it waits for a yes, and a no means it never reaches the page`, async () => {
      const name = cmd as PageCommandName;
      const { window, page, ran, agent, gateCards } = await world();

      // without the flag: it runs, and nobody is asked
      await callTool(agent, send.tool, send.args(page.pageId));
      await waitFor(() => ran.includes(name), 10_000, `${cmd} to reach the page`);
      expect(gateCards()).toEqual([]);

      ran.length = 0;
      flagDangerous(name);
      let done: CallToolResult | undefined;
      const call = callTool(agent, send.tool, send.args(page.pageId)).then((result) => (done = result));
      await waitFor(() => gateCards().length > 0, 10_000, `a page_command card for ${cmd}`);
      const [card] = gateCards();
      expect(card).toMatchObject({ kind: 'page_command', agentId: 'gated-agent', command: { cmd } });
      expect(ran).not.toContain(name);
      await window.act({ askId: card?.askId, action: 'answer', value: false });
      await call;
      if (send.fails) {
        expect(done?.isError, cmd).toBe(true);
        expect(resultText(done ?? { content: [] })).toContain(`did not allow ${cmd}`);
      }
      await barrier(agent, ran);
      expect(ran).not.toContain(name);
    });
  }
});
