import { describe, expect, it } from 'vitest';
import type { AskOutcome, AskUpdate, AskView } from '../../bridge/protocol/index.js';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { windowClient } from '../helpers/window.js';
import { sleep } from '../helpers/wait.js';

/** An ask as a tool opens it: shown (and answerable) once it is on disk. */
async function ask(bridge: Bridge, spec: Partial<Parameters<Bridge['context']['asks']['create']>[0]> = {}) {
  const opened = bridge.context.asks.create({
    kind: 'user_confirm',
    agentId: 'claude-code',
    prompt: 'Ship it?',
    ...spec,
  });
  await opened.opened;
  return opened;
}

describe('asks in the human window', () => {
  it('shows a new ask on the stream with its countdown, and in the state of a window that opens later', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge, { kind: 'user_choose', prompt: 'Which colour?', choices: ['red', 'blue'] });
    const event = (await window.stream.next('ask')).data as AskView;
    expect(event).toMatchObject({
      askId: opened.askId,
      kind: 'user_choose',
      agentId: 'claude-code',
      prompt: 'Which colour?',
      choices: ['red', 'blue'],
      paused: false,
    });
    expect(event.remainingMs).toBeGreaterThan(110_000);
    expect(event.remainingMs).toBeLessThanOrEqual(120_000);
    const later = await windowClient(bridge);
    expect(later.state.asks.map((a) => a.askId)).toEqual([opened.askId]);
    expect(later.state.away).toBe(false);
  });

  it('answers a confirmation: the agent gets the value, the note and a hint; the window sees it end', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge);
    const res = await window.act({ askId: opened.askId, action: 'answer', value: true, note: 'go ahead' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ askId: opened.askId, status: 'answered' });
    const outcome = await opened.outcome;
    expect(outcome).toMatchObject({ status: 'answered', value: true, note: 'go ahead' });
    expect(outcome.hint).toMatch(/go on/i);
    const update = (await window.stream.next('ask_update')).data as AskUpdate;
    expect(update).toMatchObject({ askId: opened.askId, status: 'answered' });
    expect((await windowClient(bridge)).state.asks).toEqual([]);
  });

  it('refuses a choice that was not offered, saying which were', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge, { kind: 'user_choose', prompt: 'Which colour?', choices: ['red', 'blue'] });
    const res = await window.act({ askId: opened.askId, action: 'answer', value: 'green' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: '"green" is not among the choices offered: "red", "blue"',
      field: 'value',
    });
    expect(bridge.context.asks.get(opened.askId)).toBeDefined();
    expect((await window.act({ askId: opened.askId, action: 'answer', value: 'blue' })).status).toBe(200);
    expect(await opened.outcome).toMatchObject({ status: 'answered', value: 'blue' });
  });

  it('takes several choices when the ask allows multiple, and only one otherwise', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const single = await ask(bridge, { kind: 'user_choose', prompt: 'One', choices: ['a', 'b', 'c'] });
    const two = await window.act({ askId: single.askId, action: 'answer', value: ['a', 'b'] });
    expect(two.status).toBe(400);
    expect(two.body).toMatchObject({ error: expect.stringContaining('takes one choice') });
    const many = await ask(bridge, { kind: 'user_choose', prompt: 'Some', choices: ['a', 'b', 'c'], multiple: true });
    expect((await window.act({ askId: many.askId, action: 'answer', value: ['c', 'a'] })).status).toBe(200);
    expect(await many.outcome).toMatchObject({ status: 'answered', value: ['c', 'a'] });
  });

  it('checks the value against the kind of ask', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const confirm = await ask(bridge);
    const text = await window.act({ askId: confirm.askId, action: 'answer', value: 'yes' });
    expect(text.status).toBe(400);
    expect(text.body).toMatchObject({ error: 'a user_confirm answer is true (yes) or false (no); got "yes"' });
    const presence = await ask(bridge, { kind: 'user_presence', prompt: 'Are you there?' });
    const odd = await window.act({ askId: presence.askId, action: 'answer', value: 'busy' });
    expect(odd.body).toMatchObject({ error: 'a user_presence answer is "present" or "away"; got "busy"' });
    const pick = await ask(bridge, { kind: 'user_pick_element', prompt: 'Pick the header' });
    const fromWindow = await window.act({ askId: pick.askId, action: 'answer', value: 'h1' });
    expect(fromWindow.status).toBe(400);
    expect(fromWindow.body).toMatchObject({ error: expect.stringContaining('picked on the page itself') });
  });

  it('fills in the default of a text input answered without a value', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const input = await ask(bridge, { kind: 'user_input', prompt: 'Branch name?', defaultValue: 'main' });
    expect((await window.act({ askId: input.askId, action: 'answer' })).status).toBe(200);
    expect(await input.outcome).toMatchObject({ status: 'answered', value: 'main' });
  });

  it('rejects with a preset reason and free text, and hints what to do next', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const cases = [
      ['not_now', /ask again later/],
      ['wrong_approach', /different approach/],
      ['need_info', /Explain the context/],
      ['stop_task', /stop now/i],
    ] as const;
    for (const [reason, hint] of cases) {
      const opened = await ask(bridge);
      const res = await window.act({ askId: opened.askId, action: 'reject', reason, note: `because ${reason}` });
      expect(res.status).toBe(200);
      const outcome: AskOutcome = await opened.outcome;
      expect(outcome).toMatchObject({ status: 'rejected', reason, text: `because ${reason}` });
      expect(outcome.hint).toMatch(hint);
    }
    const bad = await window.act({ askId: (await ask(bridge)).askId, action: 'reject', reason: 'bored' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'reason' });
  });

  it('pauses and resumes the countdown: the remaining time freezes and the deadline moves later', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge, { timeoutMs: 60_000 });
    const first = (await window.stream.next('ask')).data as AskView;
    const paused = (await window.act({ askId: opened.askId, action: 'pause' })).body as AskUpdate;
    expect(paused).toMatchObject({ paused: true, status: 'open' });
    expect((await window.stream.next('ask_update')).data).toMatchObject({ paused: true });
    await sleep(400);
    const stillPaused = (await windowClient(bridge)).state.asks[0];
    expect(stillPaused?.remainingMs).toBe(paused.remainingMs);
    const resumed = (await window.act({ askId: opened.askId, action: 'resume' })).body as AskUpdate;
    expect(resumed).toMatchObject({ paused: false, status: 'open' });
    expect(Date.parse(resumed.deadline) - Date.parse(first.deadline)).toBeGreaterThanOrEqual(400);
  });

  it('ends an unanswered ask as timed_out with a hint to carry on with the safest default', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge, { timeoutMs: 300 });
    const outcome = await opened.outcome;
    expect(outcome).toMatchObject({ status: 'timed_out', text: expect.stringMatching(/no answer within/) });
    expect(outcome.hint).toMatch(/safest default/);
    expect(outcome.hint).toMatch(/do not ask again at once/);
    expect((await window.stream.next('ask_update')).data).toMatchObject({ status: 'timed_out' });
    const late = await window.act({ askId: opened.askId, action: 'answer', value: true });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: `ask "${opened.askId}" has already ended (timed_out)` });
  });

  it('answers 404 for an unknown ask, naming the open ones', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const opened = await ask(bridge);
    const res = await window.act({ askId: 'ask-nope', action: 'answer', value: true });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: `no ask "ask-nope"; open asks: ${opened.askId}` });
  });

  it('needs the token, and refuses a web page even with it', async () => {
    const bridge = await startBridge();
    const opened = await ask(bridge);
    const body = { askId: opened.askId, action: 'answer', value: true };
    expect((await http(`${bridge.url}/bridge/answer`, { body })).status).toBe(401);
    const fromPage = await http(`${bridge.url}/bridge/answer`, {
      body,
      token: bridge.token,
      headers: { origin: 'http://localhost:3000' },
    });
    expect(fromPage.status).toBe(403);
    expect((await http(`${bridge.url}/bridge/presence`, { body: { away: true } })).status).toBe(401);
    expect(bridge.context.asks.get(opened.askId)).toBeDefined();
  });

  it('tracks presence: the window reports idle, then any answer marks the human back', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const res = await http(`${bridge.url}/aiti/bridge/presence`, { token: bridge.token, body: { away: true } });
    expect(res).toMatchObject({ status: 200, body: { away: true } });
    expect((await window.stream.next('presence')).data).toEqual({ away: true });
    expect((await windowClient(bridge)).state.away).toBe(true);
    const opened = await ask(bridge);
    await window.act({ askId: opened.askId, action: 'pause' });
    expect((await window.stream.next('presence')).data).toEqual({ away: false });
  });

  it('marks the human away when they answer a presence ask with "away", or do not answer it', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const presence = await ask(bridge, { kind: 'user_presence', prompt: 'Are you there?' });
    await window.act({ askId: presence.askId, action: 'answer', value: 'away' });
    expect(await presence.outcome).toMatchObject({ status: 'away', value: 'away' });
    expect(bridge.context.asks.away).toBe(true);
    bridge.context.asks.setAway(false);
    const unanswered = await ask(bridge, { kind: 'user_presence', prompt: 'Still there?', timeoutMs: 200 });
    expect(await unanswered.outcome).toMatchObject({ status: 'away', text: expect.stringMatching(/no answer/) });
    expect(bridge.context.asks.away).toBe(true);
  });

  it('cancels open asks when the bridge stops, saying why, decided by the bridge', async () => {
    const bridge = await startBridge();
    const opened = await ask(bridge);
    await bridge.close();
    expect(await opened.outcome).toMatchObject({
      status: 'cancelled',
      text: 'the bridge is shutting down; ask again once it is back',
    });
    expect(opened.decidedBy).toBe('bridge');
  });
});
