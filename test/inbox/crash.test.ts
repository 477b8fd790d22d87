import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../bridge/log.js';
import type { InboxResult, Message, MessagesAnswer, PushAnswer } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { openInbox } from '../helpers/inbox.js';
import { CHILD_TOKEN, spawnBridge } from '../helpers/child-bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';

const TOKEN = CHILD_TOKEN;

async function allMessages(url: string, agentId: string): Promise<Message[]> {
  const out: Message[] = [];
  let before: string | undefined;
  for (;;) {
    const query = `agentId=${agentId}&limit=1000${before ? `&before=${before}` : ''}`;
    const page = await http(`${url}/bridge/messages?${query}`, { token: TOKEN });
    expect(page.status).toBe(200);
    const body = page.body as MessagesAnswer;
    out.push(...body.messages);
    if (!body.nextBefore) return out;
    before = body.nextBefore;
  }
}

describe('a bridge killed with SIGKILL', () => {
  it('keeps every push it answered with a 2xx; handed-out ones stay handed out, acked ones consumed', async () => {
    const dataDir = tempDir();
    // an agent the bridge knows from its journal, so pushes to it are accepted without an MCP session
    const seed = openInbox(join(dataDir, 'aiti-bridge', 'sessions'), { log: createLogger('seed', 'silent') }).inbox;
    const delivered = await seed.add('claude', { kind: 'user_message', from: 'window', text: 'seen before the crash' });
    await seed.take('claude');
    const consumed = await seed.add('claude', { kind: 'user_message', from: 'window', text: 'acked before the crash' });
    await seed.ack('claude', [consumed.id]);
    await seed.close();

    const first = await spawnBridge(dataDir);
    const seeded = new Map((await allMessages(first.url, 'claude')).map((m) => [m.id, m.status]));
    expect(seeded.get(delivered.id)).toBe('delivered');
    expect(seeded.get(consumed.id)).toBe('consumed');
    const acknowledged: string[] = [];
    let stop = false;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await http(`${first.url}/bridge/push`, {
            token: TOKEN,
            body: { to: 'claude', text: `push ${w}.${i}` },
          });
          if (res.status === 200) acknowledged.push(...(res.body as PushAnswer).delivered.map((d) => d.msgId));
        } catch {
          return; // the bridge is gone
        }
      }
    };
    // an agent reads its inbox meanwhile and acks every other message it read
    const agent = await connectAgent(first.url, { clientName: 'claude' });
    await callTool(agent, 'aiti_hello', { agentId: 'claude' });
    const read = new Set<string>();
    const consumedNow = new Set<string>();
    const ackSent = new Set<string>(); // an ack in flight at the kill may or may not have landed
    const reader = async () => {
      while (!stop) {
        try {
          const result = await callTool(agent, 'aiti_inbox', {});
          const ids = (result.structuredContent as InboxResult).messages.map((m) => m.id);
          ids.forEach((id) => read.add(id));
          const ack = ids.filter((_, i) => i % 2 === 0);
          if (!ack.length) continue;
          ack.forEach((id) => ackSent.add(id));
          const acked = await callTool(agent, 'aiti_inbox', { ack });
          ((acked.structuredContent as InboxResult).acked ?? []).forEach((id) => consumedNow.add(id));
          ((acked.structuredContent as InboxResult).messages ?? []).forEach((m) => read.add(m.id));
        } catch {
          return; // the bridge is gone
        }
      }
    };
    const workers = Array.from({ length: 6 }, (_, w) => worker(w));
    const reading = reader();
    while (acknowledged.length < 300) await new Promise((r) => setTimeout(r, 5));
    first.child.kill('SIGKILL'); // while pushes are in flight
    await new Promise((resolve) => first.child.once('exit', resolve));
    stop = true;
    await Promise.all(workers);
    // a tool call cut off by the kill may never settle in the SDK client (it waits for its own timeout): closing the
    // client fails it, and the reader stops
    await agent.close();
    await reading;

    const second = await spawnBridge(dataDir);
    const messages = await allMessages(second.url, 'claude');
    const status = new Map(messages.map((m) => [m.id, m.status]));
    const lost = acknowledged.filter((id) => !status.has(id));
    expect(lost).toEqual([]);
    expect(consumedNow.size).toBeGreaterThan(0);
    expect(read.size).toBeGreaterThan(consumedNow.size);
    for (const id of acknowledged) {
      if (consumedNow.has(id)) expect(status.get(id)).toBe('consumed');
      // a message the agent read was handed out on disk before the answer left
      else if (ackSent.has(id)) expect(['delivered', 'consumed']).toContain(status.get(id));
      else if (read.has(id)) expect(status.get(id)).toBe('delivered');
      // one a read in flight at the kill took may be handed out, never consumed
      else expect(['pending', 'delivered']).toContain(status.get(id));
    }
    expect(status.get(consumed.id)).toBe('consumed');
    expect(second.stderr()).not.toMatch(/error/i);
  }, 60_000);
});
