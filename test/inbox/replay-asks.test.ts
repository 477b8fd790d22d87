import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Asks } from '../../bridge/asks/asks.js';
import { createLogger } from '../../bridge/log.js';
import type { Bridge } from '../../bridge/bridge.js';
import type { MessagesAnswer } from '../../bridge/protocol/index.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { askLedger, openInbox } from '../helpers/inbox.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { windowState as readWindowState } from '../helpers/window.js';

/**
 * What a bridge started on a data dir finds of the asks its journal holds. The run before it is the bridge's own
 * asks and inbox on that data dir (as createBridge wires them) with a clock the test moves, so "just before the
 * stop" and "a minute before" are exact; the restart is a real bridge. test/reliability/asks-restart.test.ts does
 * the same across a SIGKILL of a child bridge.
 */

const log = createLogger('test', 'silent');

/** The run before the restart, on `dataDir`, its clock at the real time (the restarted bridge keeps real time). */
function firstRun(dataDir: string) {
  const clock = new ManualClock();
  clock.stepWall(Date.now() - clock.wallNow());
  const now = () => new Date(clock.wallNow());
  const { inbox, journal } = openInbox(join(dataDir, 'aiti-bridge', 'sessions'), { log, now });
  const ledger = askLedger(journal, inbox, log);
  return { clock, inbox, asks: new Asks({ broadcast: () => undefined }, clock, ledger) };
}

const windowState = (bridge: Bridge) => readWindowState(bridge.url, bridge.token);

async function answersIn(bridge: Bridge, agentId: string): Promise<MessagesAnswer['messages']> {
  const res = await http(`${bridge.url}/bridge/messages?agentId=${agentId}&limit=1000`, { token: bridge.token });
  expect(res.status).toBe(200);
  return (res.body as MessagesAnswer).messages.filter((m) => m.kind === 'user_answer');
}

describe('asks the journal holds, at a restart', () => {
  it('an async ask open at the stop is shown again, paused as the human left it; one answered before is not', async () => {
    const dataDir = tempDir();
    const { clock, inbox, asks } = firstRun(dataDir);
    const waiting = asks.create({
      kind: 'user_input',
      agentId: 'claude',
      prompt: 'Name of the table?',
      async: true,
      timeoutMs: 600_000,
    });
    await waiting.opened;
    clock.advance(20_000);
    await asks.act({ askId: waiting.askId, action: 'pause' });
    const done = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship?', async: true });
    await done.opened;
    await asks.act({ askId: done.askId, action: 'answer', value: true });
    await inbox.close();

    const bridge = await startBridge({ dataDir });
    const state = await windowState(bridge);
    expect(state.asks).toEqual([
      expect.objectContaining({
        askId: waiting.askId,
        prompt: 'Name of the table?',
        paused: true,
        remainingMs: 580_000,
      }),
    ]);
    // the answered one reached the agent once, before the stop
    expect((await answersIn(bridge, 'claude')).map((m) => m.ref)).toEqual([done.askId]);
  });

  it('a sync ask answered just before the stop: its answer waits in the inbox, saying the call may have missed it', async () => {
    const dataDir = tempDir();
    const { clock, inbox, asks } = firstRun(dataDir);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Deploy now?' });
    await ask.opened;
    await asks.act({ askId: ask.askId, action: 'answer', value: true });
    clock.advance(5_000);
    await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'the last push before the stop' });
    await inbox.close();

    const bridge = await startBridge({ dataDir });
    const [answer, ...more] = await answersIn(bridge, 'claude');
    expect(more).toEqual([]);
    expect(answer).toMatchObject({
      ref: ask.askId,
      payload: expect.objectContaining({ status: 'answered', value: true }),
    });
    expect(answer?.text).toContain('given here because the bridge stopped right after');
  });

  it('a sync ask answered a minute before the last push was heard by its call: nothing is given again', async () => {
    const dataDir = tempDir();
    const { clock, inbox, asks } = firstRun(dataDir);
    const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Deploy now?' });
    await ask.opened;
    await asks.act({ askId: ask.askId, action: 'answer', value: true });
    clock.advance(60_000);
    await inbox.add('claude', { kind: 'user_message', from: 'window', text: 'the last push before the stop' });
    await inbox.close();

    const bridge = await startBridge({ dataDir });
    expect(await answersIn(bridge, 'claude')).toEqual([]);
    expect((await windowState(bridge)).asks).toEqual([]);
  });
});
