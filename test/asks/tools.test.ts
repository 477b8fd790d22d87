import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { AskOutcome, AskUpdate, Message } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent, resultText, type AgentTransportKind } from '../helpers/mcp.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

async function setup() {
  const bridge = await startBridge();
  const window = await windowClient(bridge);
  const agent = await connectAgent(bridge.url, { clientName: 'test-agent' });
  return { bridge, window, agent };
}

/** Starts a tool call and keeps its progress notifications. */
function ask(agent: Client, name: string, args: Record<string, unknown>, signal?: AbortSignal) {
  const progress: Progress[] = [];
  const result = agent.callTool({ name, arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
    timeout: 60_000,
    ...(signal ? { signal } : {}),
  }) as Promise<CallToolResult>;
  return { result, progress };
}

function outcome(result: CallToolResult): AskOutcome {
  expect(result.isError ?? false).toBe(false);
  return result.structuredContent as AskOutcome;
}

describe('asking the human over MCP', () => {
  it('lists every user_* tool', async () => {
    const { agent } = await setup();
    const names = (await agent.listTools()).tools.map((t) => t.name);
    for (const name of [
      'user_confirm',
      'user_choose',
      'user_input',
      'user_presence',
      'user_notify',
      'user_pick_element',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('user_confirm holds the call until the human answers, sending progress with the remaining time', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_confirm', { prompt: 'Delete the old build folder?' });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_confirm', agentId: 'test-agent', prompt: 'Delete the old build folder?' });
    await waitFor(() => call.progress.length > 0, 5000, 'a progress notification');
    expect(call.progress[0]?.message).toMatch(/waiting for the human to answer, \d+ s left/);
    await window.act({ askId: card.askId, action: 'answer', value: false, note: 'keep it for now' });
    const result = await call.result;
    expect(outcome(result)).toMatchObject({
      askId: card.askId,
      status: 'answered',
      value: false,
      note: 'keep it for now',
    });
    expect(outcome(result).hint).toMatch(/Do not go ahead/);
    expect(resultText(result)).toContain('the human answered false');
  });

  it('keeps sending progress every few seconds while the human thinks', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_input', { prompt: 'Commit message?' });
    const card = await window.nextAsk();
    await waitFor(() => call.progress.length >= 2, 8000, 'a second progress notification');
    const [first, second] = call.progress;
    expect(second?.progress).toBeGreaterThan(first?.progress ?? Infinity);
    await window.act({ askId: card.askId, action: 'answer', value: 'fix: typo' });
    expect(outcome(await call.result)).toMatchObject({ status: 'answered', value: 'fix: typo' });
  }, 15_000);

  it('user_choose returns the chosen labels, and a choice not offered is refused', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_choose', {
      prompt: 'Which browsers?',
      choices: ['Chrome', 'Firefox', 'Safari'],
      multiple: true,
    });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ choices: ['Chrome', 'Firefox', 'Safari'], multiple: true });
    const wrong = await window.act({ askId: card.askId, action: 'answer', value: ['Chrome', 'Edge'] });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({
      error: '"Edge" is not among the choices offered: "Chrome", "Firefox", "Safari"',
    });
    await window.act({ askId: card.askId, action: 'answer', value: ['Safari', 'Chrome'] });
    expect(outcome(await call.result)).toMatchObject({ status: 'answered', value: ['Safari', 'Chrome'] });
  });

  it('user_input shows the default and returns the text', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_input', { prompt: 'Port?', defaultValue: '3000' });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_input', defaultValue: '3000' });
    await window.act({ askId: card.askId, action: 'answer', value: '5173' });
    expect(outcome(await call.result)).toMatchObject({ status: 'answered', value: '5173' });
  });

  it('a rejection carries the reason, the human’s text and what to do next', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_choose', { prompt: 'Which ORM?', choices: ['Prisma', 'Drizzle'] });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'reject', reason: 'need_info', note: 'what does the app store?' });
    const result = outcome(await call.result);
    expect(result).toMatchObject({ status: 'rejected', reason: 'need_info', text: 'what does the app store?' });
    expect(result.hint).toMatch(/Explain the context/);
  });

  it('an unanswered question times out with a hint to carry on with the safest default', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_confirm', { prompt: 'Run the migration?', timeoutMs: 400 });
    const card = await window.nextAsk();
    const result = outcome(await call.result);
    expect(result).toMatchObject({ askId: card.askId, status: 'timed_out' });
    expect(result.hint).toMatch(/safest default/);
    expect((await window.stream.next('ask_update')).data).toMatchObject({ askId: card.askId, status: 'timed_out' });
  });

  it('pausing stops the countdown for the agent too, and resuming moves the deadline', async () => {
    const { window, agent } = await setup();
    const call = ask(agent, 'user_confirm', { prompt: 'Deploy?', timeoutMs: 1500 });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'pause' });
    await waitFor(() => call.progress.some((p) => p.message?.includes('paused')), 5000, 'a "paused" progress note');
    // a second question, asked after the pause, that runs out in longer than the whole first timeout: once it has,
    // a running countdown would have ended the first
    const later = ask(agent, 'user_confirm', { prompt: 'Roll back?', timeoutMs: 2000 });
    expect(outcome(await later.result)).toMatchObject({ status: 'timed_out' });
    const resumed = (await window.act({ askId: card.askId, action: 'resume' })).body as AskUpdate;
    expect(resumed).toMatchObject({ status: 'open', paused: false });
    expect(Date.parse(resumed.deadline) - Date.parse(card.deadline)).toBeGreaterThanOrEqual(2000);
    await window.act({ askId: card.askId, action: 'answer', value: true });
    expect(outcome(await call.result)).toMatchObject({ status: 'answered', value: true });
  });

  it('a cancelled call withdraws its question from the window', async () => {
    const { window, agent } = await setup();
    const controller = new AbortController();
    const call = ask(agent, 'user_confirm', { prompt: 'Proceed?' }, controller.signal);
    const card = await window.nextAsk();
    controller.abort();
    await expect(call.result).rejects.toThrow();
    expect((await window.stream.next('ask_update')).data).toMatchObject({ askId: card.askId, status: 'cancelled' });
  });

  it('a client that disconnects cancels its waiting questions', async () => {
    const { bridge, window, agent } = await setup();
    const call = ask(agent, 'user_input', { prompt: 'Name?' });
    call.result.catch(() => undefined);
    const card = await window.nextAsk();
    await agent.close();
    expect((await window.stream.next('ask_update')).data).toMatchObject({ askId: card.askId, status: 'cancelled' });
    expect(bridge.context.asks.views()).toEqual([]);
  });

  it('async:true returns the ask id at once and the answer lands in the inbox as user_answer', async () => {
    const { window, agent } = await setup();
    const first = outcome(
      (await agent.callTool({
        name: 'user_confirm',
        arguments: { prompt: 'Also add tests?', async: true },
      })) as CallToolResult,
    );
    expect(first).toMatchObject({ status: 'open', askId: expect.stringMatching(/^ask-/) });
    const card = await window.nextAsk();
    expect(card.askId).toBe(first.askId);
    await window.act({ askId: card.askId, action: 'answer', value: true, note: 'unit tests only' });
    let messages: Message[] = [];
    await waitFor(
      async () => {
        const inbox = (await agent.callTool({ name: 'aiti_inbox', arguments: {} })) as CallToolResult;
        messages = (inbox.structuredContent as { messages: Message[] }).messages;
        return messages.length > 0;
      },
      5000,
      'the answer in the inbox',
    );
    expect(messages[0]).toMatchObject({
      kind: 'user_answer',
      from: 'window',
      agentId: 'test-agent',
      payload: { askId: card.askId, status: 'answered', value: true, note: 'unit tests only' },
    });
  });

  it('an async ask that times out reaches the inbox from the bridge, and the notice does not put it in the human’s mouth', async () => {
    const { agent } = await setup();
    await agent.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Rename the table?', async: true, timeoutMs: 300 },
    });
    let notice = '';
    await waitFor(
      async () => {
        notice = resultText((await agent.callTool({ name: 'bridge_status', arguments: {} })) as CallToolResult);
        return notice.includes('📬');
      },
      5000,
      'the inbox notice',
    );
    expect(notice).toContain('from the bridge: "the human did not answer in time');
    expect(notice).not.toContain('from the human');
    const inbox = (await agent.callTool({ name: 'aiti_inbox', arguments: {} })) as CallToolResult;
    const [answer] = (inbox.structuredContent as { messages: Message[] }).messages;
    expect(answer).toMatchObject({ kind: 'user_answer', from: 'bridge', payload: { status: 'timed_out' } });
  });

  it('every ask is on record in History with who decided, away asks with no card included', async () => {
    const { bridge, window, agent } = await setup();
    const answered = ask(agent, 'user_confirm', { prompt: 'Answered?' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: false, note: 'not today' });
    await answered.result;
    bridge.context.asks.setAway(true);
    outcome((await agent.callTool({ name: 'user_input', arguments: { prompt: 'Away?' } })) as CallToolResult);
    let records: Message[] = [];
    await waitFor(
      async () => {
        const history = await http(`${bridge.url}/bridge/messages?agentId=test-agent`, { token: bridge.token });
        records = (history.body as { messages: Message[] }).messages.filter((m) => m.kind === 'ask');
        return records.length === 2;
      },
      5000,
      'two ask records',
    );
    expect(records.map((m) => [m.from, m.status, m.payload])).toEqual([
      [
        'bridge',
        'consumed',
        expect.objectContaining({ prompt: 'Away?', status: 'away', decidedBy: 'bridge', shown: false }),
      ],
      [
        'window',
        'consumed',
        expect.objectContaining({
          prompt: 'Answered?',
          status: 'answered',
          value: false,
          note: 'not today',
          decidedBy: 'human',
          shown: true,
        }),
      ],
    ]);
    // records are History only: they are not in the agent's inbox and count as nothing unread
    const inbox = (await agent.callTool({ name: 'aiti_inbox', arguments: {} })) as CallToolResult;
    expect((inbox.structuredContent as { messages: Message[] }).messages).toEqual([]);
  });

  it('user_presence: "present" is an answer, "away" marks the human away and later questions return at once', async () => {
    const { bridge, window, agent } = await setup();
    const here = ask(agent, 'user_presence', {});
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_presence', prompt: 'Are you there?', choices: ['present', 'away'] });
    await window.act({ askId: card.askId, action: 'answer', value: 'present' });
    expect(outcome(await here.result)).toMatchObject({ status: 'answered', value: 'present' });

    const gone = ask(agent, 'user_presence', { prompt: 'Still with me?' });
    const second = await window.nextAsk();
    await window.act({ askId: second.askId, action: 'answer', value: 'away' });
    expect(outcome(await gone.result)).toMatchObject({ status: 'away' });
    expect((await window.stream.next('presence')).data).toEqual({ away: true });

    const quick = outcome(await ask(agent, 'user_confirm', { prompt: 'Anyone?' }).result);
    expect(quick).toMatchObject({ status: 'away' });
    expect(quick.hint).toMatch(/away/);
    expect(bridge.context.asks.views()).toEqual([]);
  });

  it('when the window reports the human idle, sync questions answer away at once unless the agent waits', async () => {
    const { bridge, window, agent } = await setup();
    await http(`${bridge.url}/bridge/presence`, { token: bridge.token, body: { away: true } });
    expect(outcome(await ask(agent, 'user_input', { prompt: 'Name?' }).result)).toMatchObject({ status: 'away' });
    expect(outcome(await ask(agent, 'user_presence', {}).result)).toMatchObject({ status: 'away' });
    const patient = ask(agent, 'user_choose', { prompt: 'Tabs or spaces?', choices: ['tabs', 'spaces'], wait: true });
    const card = await window.nextAsk();
    expect(card.prompt).toBe('Tabs or spaces?');
    await window.act({ askId: card.askId, action: 'answer', value: 'spaces' });
    expect(outcome(await patient.result)).toMatchObject({ status: 'answered', value: 'spaces' });
    expect(bridge.context.asks.away).toBe(false);
  });

  it('user_notify returns at once and tells the window', async () => {
    const { window, agent } = await setup();
    const result = (await agent.callTool({
      name: 'user_notify',
      arguments: { title: 'Build', body: 'The build is green' },
    })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ notified: true, windows: 1 });
    expect((await window.stream.next('notify')).data).toEqual({
      agentId: 'test-agent',
      title: 'Build',
      body: 'The build is green',
    });
  });
});

describe('asking over every transport', () => {
  it.each<AgentTransportKind>(['stateless', 'stdio'])(
    'a sync user_confirm over %s gets progress and the answer',
    async (transport) => {
      const bridge = await startBridge();
      const window = await windowClient(bridge);
      const agent = await connectAgent(bridge.url, { transport, clientName: 'test-agent' });
      const call = ask(agent, 'user_confirm', { prompt: `Over ${transport}?` });
      const card = await window.nextAsk();
      expect(card.prompt).toBe(`Over ${transport}?`);
      await waitFor(() => call.progress.length > 0, 5000, 'a progress notification');
      expect(call.progress[0]?.message).toMatch(/s left/);
      await window.act({ askId: card.askId, action: 'answer', value: true });
      expect(outcome(await call.result)).toMatchObject({ status: 'answered', value: true });
    },
    20_000,
  );
});
