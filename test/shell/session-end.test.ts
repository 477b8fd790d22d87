import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupSessionEnd } from '../../electron/session-end.js';
import { trackOpenAsks } from '../../electron/open-asks.js';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/** A real bridge with one agent waiting on user_confirm, and the shell's session-end wiring around it. */
async function waitingAsk() {
  const bridge = await startBridge();
  const asks = trackOpenAsks(bridge.context.hub);
  const agent = await connectAgent(bridge.url, { clientName: 'logoff-check' });
  const call = agent.callTool(
    { name: 'user_confirm', arguments: { prompt: 'Deploy to staging?', timeoutMs: 600_000 } },
    undefined,
    { timeout: 20_000 },
  );
  await waitFor(() => asks.list().length === 1, 10_000, 'the ask to open');
  const window = new EventEmitter();
  const powerMonitor = new EventEmitter();
  const seen = { closes: 0, quitAfterClose: false, quits: 0 };
  let closing: Promise<void> | undefined;
  let closed = false;
  setupSessionEnd({
    window,
    powerMonitor,
    closeBridge: () => {
      seen.closes++;
      closing ??= bridge.close().then(() => void (closed = true));
      return closing;
    },
    quit: () => {
      seen.quits++;
      seen.quitAfterClose = closed;
    },
  });
  return { call, window, powerMonitor, seen };
}

describe('logoff and shutdown', () => {
  it('Windows session-end closes the bridge, answering the open ask, then quits', async () => {
    const { call, window, seen } = await waitingAsk();
    window.emit('session-end');
    const result = (await call) as { structuredContent?: { status?: string } };
    expect(result.structuredContent?.status).toBe('cancelled');
    await waitFor(() => seen.quits === 1, 5000, 'the app to quit');
    expect(seen).toEqual({ closes: 1, quitAfterClose: true, quits: 1 });
  });

  it("powerMonitor's shutdown asks the system to wait, closes the bridge and quits", async () => {
    const { call, powerMonitor, seen } = await waitingAsk();
    let delayed = false;
    powerMonitor.emit('shutdown', { preventDefault: () => (delayed = true) });
    expect(delayed).toBe(true);
    expect(((await call) as { structuredContent?: { status?: string } }).structuredContent?.status).toBe('cancelled');
    await waitFor(() => seen.quits === 1, 5000, 'the app to quit');
    expect(seen.quitAfterClose).toBe(true);
  });
});
