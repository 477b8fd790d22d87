import { afterEach, describe, expect, it, vi } from 'vitest';
import { Asks } from '../../bridge/asks/asks.js';
import type { AskUpdate, AskView } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

/** Steps the process's wall clock (Date) by `ms`; timers and performance.now() keep real time. */
function stepWallClock(ms: number): void {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a wall-clock step during an ask', () => {
  for (const step of [-60_000, 60_000]) {
    it(`a step ${step < 0 ? 'back' : 'forward'} by 60 s moves neither the end nor the time left; the ISO deadline follows the wall clock`, async () => {
      const clock = new ManualClock();
      const events: Array<{ event: string; data: unknown }> = [];
      const asks = new Asks({ broadcast: (event, data) => events.push({ event, data }) }, clock);
      const ask = asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?', timeoutMs: 4000 });
      await ask.opened;
      clock.advance(1000);
      clock.stepWall(step);
      const view = asks.views()[0] as AskView;
      expect(view.remainingMs).toBe(3000);
      expect(Date.parse(view.deadline)).toBe(clock.wallNow() + 3000);
      clock.advance(2999);
      await Promise.resolve();
      expect(asks.views()).toHaveLength(1);
      clock.advance(1);
      expect(await ask.outcome).toMatchObject({ status: 'timed_out' });
      expect(asks.views()).toEqual([]);
      const ended = events.find((e) => e.event === 'ask_update')?.data as AskUpdate;
      expect(ended).toMatchObject({ askId: ask.askId, status: 'timed_out', remainingMs: 0 });
    });
  }

  it('a running bridge: a sync ask ends on time although the wall clock went back a minute, and the window shows the real time left', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url);
    const window = await windowClient(bridge);
    const started = performance.now();
    const call = callTool(agent, 'user_confirm', { prompt: 'Ship it?', timeoutMs: 2500 });
    await window.stream.next('ask');
    stepWallClock(-60_000);
    const later = await windowClient(bridge);
    expect(later.state.asks[0]?.remainingMs).toBeLessThanOrEqual(2500);
    const result = await call;
    expect(result.structuredContent).toMatchObject({ status: 'timed_out' });
    // on time: not a minute late (a step back), whatever the machine's load
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  it('a running bridge: a wall clock stepped forward a minute does not end the ask early', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url);
    const window = await windowClient(bridge);
    const call = callTool(agent, 'user_confirm', { prompt: 'Ship it?', timeoutMs: 30_000 });
    const ask = (await window.stream.next('ask')).data as AskView;
    stepWallClock(60_000);
    const later = await windowClient(bridge);
    expect(later.state.asks.map((a) => a.askId)).toEqual([ask.askId]);
    expect(later.state.asks[0]?.remainingMs).toBeGreaterThan(20_000);
    const res = await window.act({ askId: ask.askId, action: 'answer', value: true });
    expect(res.status).toBe(200);
    expect((await call).structuredContent).toMatchObject({ status: 'answered', value: true });
  });

  it('a page reloading while the wall clock steps forward is still waited for, not taken for gone', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, { handler: () => ({ clicked: true }) });
    const agent = await connectAgent(bridge.url);
    expect((await callTool(agent, 'page_exec', { cmd: 'DOM.getText', args: {} })).isError ?? false).toBe(false);
    page.close();
    await waitFor(() => bridge.context.pages.operable().length === 0, 5000, 'the page stream closed');
    stepWallClock(60_000);
    const call = callTool(agent, 'page_exec', { cmd: 'DOM.getText', args: {} });
    // the reload brings the page back a moment later
    await new Promise((resolve) => setTimeout(resolve, 300));
    await page.open();
    const result = await call;
    expect(result.isError ?? false, resultText(result)).toBe(false);
    expect(result.structuredContent).toMatchObject({ result: { clicked: true } });
  });
});
