import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createBridge } from '../../bridge/bridge.js';
import type { Inbox } from '../../bridge/inbox/inbox.js';
import type { InboxResult, MessagesAnswer, StateEvent } from '../../bridge/protocol/index.js';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { FaultyDisk } from '../helpers/faulty-disk.js';
import { openInbox } from '../helpers/inbox.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/**
 * README "Inbox, push and the journal": an agent id is the human's name for a session. aiti_hello renaming a
 * session moves what its automatic name held — history and unread messages — to the new name, and leaves no
 * offline ghost behind, neither in the window nor after a restart.
 */
describe('aiti_hello renames', () => {
  it('ten sessions renaming themselves leave ten agents, each with its own unread push, and no ghost', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir });
    const clients = [];
    for (let i = 1; i <= 10; i++) clients.push(await connectAgent(bridge.url, { clientName: 'claude-code' }));
    // every session is online under its automatic name (claude-code, claude-code-2 …)
    await waitFor(() => bridge.context.agents.all().filter((a) => a.links.size > 0).length === 10, 5000, 'ten online');
    const pushed = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { to: 'all', text: 'Pull main before you go on' },
    });
    expect(pushed.status).toBe(200);

    // each hello answers the count a restart keeps: the move is on disk before the answer
    const pending = [];
    for (const [i, client] of clients.entries()) {
      const hello = (await client.callTool({
        name: 'aiti_hello',
        arguments: { agentId: `worker-${i + 1}` },
      })) as CallToolResult;
      pending.push((hello.structuredContent as { pending: number }).pending);
    }
    expect(pending).toEqual(Array(10).fill(1));

    const names = Array.from({ length: 10 }, (_, i) => `worker-${i + 1}`).sort();
    const state = bridge.context.hub.snapshot() as StateEvent;
    expect(state.agents.map((a) => a.agentId).sort()).toEqual(names);
    expect(state.agents.every((a) => a.online && a.unread === 1)).toBe(true);
    expect(Object.keys(state.inbox).sort()).toEqual(names);

    // the push waits in each new name's inbox, not under the old automatic name
    const first = (await clients[0]?.callTool({ name: 'aiti_inbox', arguments: {} })) as CallToolResult;
    expect((first.structuredContent as InboxResult).messages.map((m) => [m.agentId, m.text])).toEqual([
      ['worker-1', 'Pull main before you go on'],
    ]);
    const ghost = await http(`${bridge.url}/bridge/messages?agentId=claude-code`, { token: bridge.token });
    expect((ghost.body as MessagesAnswer).messages).toEqual([]);

    // and so it stays after a restart: the journal replays the renames
    await bridge.close();
    const again = await createBridge({ port: 0, dataDir });
    onCleanup(() => again.close());
    expect(again.context.inbox.agentIds().sort()).toEqual(names);
    // worker-1 read it (handed out, not acked): a restart keeps it so, and worker-1's next read hands it out again
    expect(again.context.inbox.counts('worker-1')).toMatchObject({ pending: 0, delivered: 1 });
    expect(again.context.inbox.unread('worker-2')).toBe(1);
    expect(again.context.inbox.unread('claude-code')).toBe(0);
  });

  it('a name the agent chose itself is not carried off by a later rename', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'cursor' });
    await agent.callTool({ name: 'aiti_hello', arguments: { agentId: 'alice' } });
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'alice', text: 'for alice' } });
    await agent.callTool({ name: 'aiti_hello', arguments: { agentId: 'bob' } });
    expect(bridge.context.inbox.unread('alice')).toBe(1);
    expect(bridge.context.inbox.unread('bob')).toBe(0);
    expect(bridge.context.agents.get('alice')?.links.size).toBe(0);
  });
});

describe('a rename the disk refuses', () => {
  const open = (dir: string, disk?: FaultyDisk): Inbox => openInbox(dir, disk ? { disk } : {}).inbox;
  const texts = async (inbox: Inbox, agentId: string) =>
    (await inbox.history({ agentId, limit: 100 })).messages.map((m) => m.text);

  it('moves nothing: the messages read under the old name now, as they will after a restart', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const inbox = open(dir, disk);
    await inbox.add('claude-code', { kind: 'user_message', from: 'window', text: 'Pull main first' });
    disk.refuseWrites = 'EROFS';
    await expect(inbox.rename('claude-code', 'worker-1')).rejects.toThrow(/EROFS/);
    expect([await texts(inbox, 'claude-code'), await texts(inbox, 'worker-1')]).toEqual([['Pull main first'], []]);
    await inbox.close();

    const again = open(dir);
    expect([await texts(again, 'claude-code'), await texts(again, 'worker-1')]).toEqual([['Pull main first'], []]);
    await again.close();
  });

  it('once the disk takes the line, the move is made and kept', async () => {
    const dir = tempDir();
    const disk = new FaultyDisk();
    const inbox = open(dir, disk);
    await inbox.add('claude-code', { kind: 'user_message', from: 'window', text: 'Pull main first' });
    await inbox.rename('claude-code', 'worker-1');
    expect(disk.syncs).toBeGreaterThan(1);
    expect([await texts(inbox, 'claude-code'), await texts(inbox, 'worker-1')]).toEqual([[], ['Pull main first']]);
    disk.powerCut();
    await inbox.close();

    const again = open(dir);
    expect([await texts(again, 'claude-code'), await texts(again, 'worker-1')]).toEqual([[], ['Pull main first']]);
    await again.close();
  });
});
