// Logoff and shutdown, with the bridge in a child process so that the end of the session can really kill it.
// Electron cannot run here: WindowsSession below plays Electron 44+'s part as its docs and code have it — the
// window's `query-session-end` (which the app may hold up with preventDefault), then, unless held up,
// `session-end`, after whose handlers the process is terminated at once unless the app is already quitting.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { setupSessionEnd, type DelayableEvent } from '../../electron/session-end.js';
import { tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, spawnBridge, type ChildBridge } from '../helpers/child-bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

const delayable = () => {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event satisfies DelayableEvent;
};

/** The app around a bridge process: app.quit(), will-quit waiting for the bridge, and Electron's termination. */
class WindowsSession {
  readonly window = new EventEmitter();
  readonly powerMonitor = new EventEmitter();
  quitting = false;
  terminated = false;
  exited = false;
  private closing: Promise<void> | undefined;
  constructor(private readonly bridge: ChildBridge) {}

  /** the bridge's own close: SIGTERM, which the CLI answers by closing (open asks answered first) */
  closeBridge = (): Promise<void> => {
    this.closing ??= new Promise<void>((resolve) => {
      this.bridge.child.once('exit', () => resolve());
      this.bridge.child.kill('SIGTERM');
    });
    return this.closing;
  };

  /** app.quit(): from here on the app is quitting; main.ts's will-quit holds the exit until the bridge closed */
  quit = (): void => {
    this.quitting = true;
    void this.closeBridge().then(() => void (this.exited = true));
  };

  /** Windows logs the user off: returns whether the app held the session up */
  logoff(): 'held' | 'ended' {
    const query = delayable();
    this.window.emit('query-session-end', query);
    if (query.prevented) return 'held';
    this.forcedEnd();
    return 'ended';
  }

  /** the session ends regardless (the human chose "log off anyway", or a critical shutdown) */
  forcedEnd(): void {
    this.window.emit('session-end', delayable());
    // Electron 44+: the handlers returned; a process that is not quitting is terminated right now
    if (!this.quitting) {
      this.terminated = true;
      this.bridge.child.kill('SIGKILL');
    }
  }
}

/** A bridge process with one agent waiting on user_confirm, and the shell's session-end wiring around it. */
async function waitingAsk() {
  const bridge = await spawnBridge(tempDir());
  const agent = await connectAgent(bridge.url, { clientName: 'logoff-check' });
  const call = agent
    .callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy to staging?', timeoutMs: 600_000 } }, undefined, {
      timeout: 20_000,
    })
    .then(
      (result) => (result as { structuredContent?: { status?: string } }).structuredContent?.status,
      (error: Error) => `no answer: ${error.message}`,
    );
  await waitFor(
    async () => {
      const res = await fetch(`${bridge.url}/bridge/sse?role=ai`, {
        headers: { authorization: `Bearer ${CHILD_TOKEN}` },
      });
      const reader = res.body?.getReader();
      const first = new TextDecoder().decode((await reader?.read())?.value);
      await reader?.cancel();
      return first.includes('Deploy to staging?');
    },
    10_000,
    'the ask to open',
  );
  const session = new WindowsSession(bridge);
  setupSessionEnd(session);
  return { call, session };
}

// The bridge process closes on SIGTERM; Windows has no signal a Node process can catch, so there this model
// cannot run: the release's smoke-installed.js sends a real logoff's WM_QUERYENDSESSION to the installed app.
describe.skipIf(process.platform === 'win32')('logoff and shutdown', () => {
  it('Windows logoff: the app holds the session up, answers the open ask and quits', async () => {
    const { call, session } = await waitingAsk();
    expect(session.logoff()).toBe('held');
    expect(await call).toBe('cancelled');
    await waitFor(() => session.exited, 10_000, 'the app to exit');
    expect(session.terminated).toBe(false);
  });

  it('a session that ends anyway finds the app already quitting: Electron 44 does not kill it mid-answer', async () => {
    const { call, session } = await waitingAsk();
    session.forcedEnd();
    expect(session.terminated).toBe(false);
    expect(await call).toBe('cancelled');
    await waitFor(() => session.exited, 10_000, 'the app to exit');
  });

  it("Linux and macOS: powerMonitor's shutdown asks the system to wait, answers the ask and quits", async () => {
    const { call, session } = await waitingAsk();
    const event = delayable();
    session.powerMonitor.emit('shutdown', event);
    expect(event.prevented).toBe(true);
    expect(await call).toBe('cancelled');
    await waitFor(() => session.exited, 10_000, 'the app to exit');
  });
});
