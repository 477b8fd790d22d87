import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AskOutcome, AskRecord, InboxResult, MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge, type ChildBridge } from '../helpers/child-bridge.js';
import { needFaketime, wallClockAhead } from '../helpers/faketime.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { windowState as readWindowState } from '../helpers/window.js';

const windowState = (bridge: ChildBridge) => readWindowState(bridge.url, CHILD_TOKEN);

async function historyOf(bridge: ChildBridge, agentId: string): Promise<MessagesAnswer['messages']> {
  const res = await http(`${bridge.url}/bridge/messages?agentId=${agentId}&limit=1000`, { token: CHILD_TOKEN });
  return (res.body as MessagesAnswer).messages;
}

const answer = (bridge: ChildBridge, body: Record<string, unknown>) =>
  http(`${bridge.url}/bridge/answer`, { token: CHILD_TOKEN, body });

/** The outcome the agent finds in its inbox (a user_answer) for an ask. */
async function inboxOutcome(bridge: ChildBridge, clientName: string, askId: string): Promise<AskOutcome | undefined> {
  const agent = await connectAgent(bridge.url, { clientName });
  const inbox = (await callTool(agent, 'aiti_inbox')).structuredContent as InboxResult;
  return inbox.messages.find((m) => m.kind === 'user_answer' && m.ref === askId)?.payload as AskOutcome | undefined;
}

describe('asks across a SIGKILL of the bridge', () => {
  it('an open async ask is shown again with the time it had left, and its answer reaches the agent', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'asker' });
    const asked = await callTool(agent, 'user_input', {
      prompt: 'Name of the table?',
      async: true,
      timeoutMs: 600_000,
    });
    const { askId } = asked.structuredContent as { askId: string };
    expect((await windowState(first)).asks.map((a) => a.askId)).toEqual([askId]);
    await kill(first.child);

    const second = await spawnBridge(dataDir);
    const [card] = (await windowState(second)).asks;
    expect(card).toMatchObject({ askId, prompt: 'Name of the table?', agentId: 'asker' });
    expect(card?.remainingMs).toBeGreaterThan(500_000);
    expect(card?.remainingMs).toBeLessThan(600_000);
    expect((await answer(second, { askId, action: 'answer', value: 'users' })).status).toBe(200);
    expect(await inboxOutcome(second, 'asker', askId)).toMatchObject({ askId, status: 'answered', value: 'users' });
  });

  it('an open sync ask ends "cancelled: the bridge restarted", in the agent’s inbox, in History and in the window', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'waiter' });
    const call = callTool(agent, 'user_confirm', { prompt: 'Deploy?', timeoutMs: 600_000 });
    call.catch(() => undefined);
    await waitFor(async () => (await windowState(first)).asks.length === 1, 5000, 'the card');
    const [card] = (await windowState(first)).asks;
    await kill(first.child);

    const second = await spawnBridge(dataDir);
    const state = await windowState(second);
    expect(state.asks).toEqual([]);
    expect(state.recentEnds).toContainEqual({
      askId: card?.askId,
      outcome: expect.objectContaining({ status: 'cancelled', decidedBy: 'bridge', text: 'the bridge restarted' }),
    });
    const record = (await historyOf(second, 'waiter')).find((m) => m.kind === 'ask' && m.ref === card?.askId);
    expect(record?.payload).toMatchObject({ status: 'cancelled', text: 'the bridge restarted', prompt: 'Deploy?' });
    expect(await inboxOutcome(second, 'waiter', card?.askId ?? '')).toMatchObject({
      status: 'cancelled',
      text: 'the bridge restarted',
    });
    // a second restart does not end it again
    await kill(second.child);
    const third = await spawnBridge(dataDir);
    const records = (await historyOf(third, 'waiter')).filter((m) => m.kind === 'ask' && m.ref === card?.askId);
    expect(records).toHaveLength(1);
    expect((await windowState(third)).asks).toEqual([]);
  });

  it('an async ask whose time ran out while the bridge was down ends timed out at the restart', async (ctx) => {
    needFaketime(ctx);
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'late' });
    const asked = await callTool(agent, 'user_confirm', { prompt: 'Ship?', async: true, timeoutMs: 2000 });
    const { askId } = asked.structuredContent as { askId: string };
    await kill(first.child);
    // it comes back 3 s later by its wall clock: more than the ask's 2 s
    const second = await spawnBridge(dataDir, { env: wallClockAhead(3) });
    expect((await windowState(second)).asks).toEqual([]);
    // the agent is told the time the human had, not what was left of it at the restart
    expect(await inboxOutcome(second, 'late', askId)).toMatchObject({
      status: 'timed_out',
      text: 'no answer within 2 s',
    });
  });

  it('a paused ask comes back paused, with the time it had when the human paused it', async (ctx) => {
    needFaketime(ctx);
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'pauser' });
    const asked = await callTool(agent, 'user_confirm', { prompt: 'Wait?', async: true, timeoutMs: 60_000 });
    const { askId } = asked.structuredContent as { askId: string };
    const paused = await answer(first, { askId, action: 'pause' });
    expect(paused.status).toBe(200);
    const left = (paused.body as { remainingMs: number }).remainingMs;
    await kill(first.child);
    // it comes back a minute later by its wall clock: a paused countdown loses none of it
    const second = await spawnBridge(dataDir, { env: wallClockAhead(60) });
    const [card] = (await windowState(second)).asks;
    expect(card).toMatchObject({ askId, paused: true });
    expect(Math.abs((card?.remainingMs ?? 0) - left)).toBeLessThan(200);
  });

  it('an async answer whose record reached the disk but not its inbox line is put in the inbox at the restart', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'torn' });
    const asked = await callTool(agent, 'user_confirm', { prompt: 'Go?', async: true, timeoutMs: 60_000 });
    const { askId } = asked.structuredContent as { askId: string };
    expect((await answer(first, { askId, action: 'answer', value: true })).status).toBe(200);
    await kill(first.child);
    // the bridge stopped between the record and the answer of one write: the answer's line is gone
    const dir = join(dataDir, 'aiti-bridge', 'sessions', 'torn');
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const kept = readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => !line.includes(`"id":"${askId}.answer"`));
      writeFileSync(path, kept.join('\n'));
    }
    const second = await spawnBridge(dataDir);
    const outcome = await inboxOutcome(second, 'torn', askId);
    expect(outcome).toMatchObject({ askId, status: 'answered', value: true });
    const record = (await historyOf(second, 'torn')).find((m) => m.kind === 'ask' && m.ref === askId);
    expect((record?.payload as AskRecord | undefined)?.status).toBe('answered');
  });
});
