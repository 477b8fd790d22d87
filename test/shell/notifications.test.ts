import { describe, expect, it } from 'vitest';
import { Channel } from '../../electron/channels.js';
import { setupNotifications } from '../../electron/notifications.js';
import { trackOpenAsks } from '../../electron/open-asks.js';
import { setupWindow } from '../../electron/window.js';
import { http, startBridge } from '../helpers/bridge.js';
import { FakeNotification, FakeWindow } from './fakes.js';

async function notifyingShell(options: { paused?: boolean; supported?: boolean; platform?: NodeJS.Platform } = {}) {
  const bridge = await startBridge();
  let window: FakeWindow | undefined;
  const control = setupWindow({
    createWindow: (o) => (window = new FakeWindow(o)),
    openExternal: async () => undefined,
    url: `${bridge.url}/aiti/ui/`,
    preload: '/p.cjs',
    isQuitting: () => false,
    hidden: true,
  });
  await new Promise((resolve) => setTimeout(resolve, 0));
  const notifications: FakeNotification[] = [];
  let paused = options.paused ?? false;
  const failures: string[] = [];
  let nudges = 0;
  const notes = setupNotifications({
    createNotification: (o) => {
      const notification = new FakeNotification(o);
      notifications.push(notification);
      return notification;
    },
    isSupported: () => options.supported ?? true,
    feed: bridge.context.hub,
    asks: trackOpenAsks(bridge.context.hub),
    windowShown: () => control.isShown(),
    paused: () => paused,
    openAsk: (askId) => control.openAsk(askId),
    showWindow: () => control.show(),
    platform: options.platform ?? 'linux',
    onFailure: (problem) => failures.push(problem),
    attention: () => nudges++,
  });
  if (!window) throw new Error('no window');
  return {
    bridge,
    window,
    notifications,
    failures,
    nudges: () => nudges,
    problem: () => notes.problem(),
    setPaused: (on: boolean) => (paused = on),
  };
}

describe('desktop notifications', () => {
  it('announce a new ask while the window is hidden', async () => {
    const { bridge, notifications } = await notifyingShell();
    // an ask shows (and is announced) once it is on disk
    await bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Drop the users table?' })
      .opened;
    expect(notifications.map((n) => [n.options.title, n.options.body, n.shown])).toEqual([
      ['claude asks', 'Drop the users table?', true],
    ]);
  });

  it('clicking one shows the window on that card', async () => {
    const { bridge, window, notifications } = await notifyingShell();
    const ask = bridge.context.asks.create({ kind: 'user_input', agentId: 'cursor', prompt: 'Port?' });
    await ask.opened;
    notifications[0]?.click();
    expect(window.visible).toBe(true);
    expect(window.webContents.sent).toEqual([{ channel: Channel.OpenAsk, args: [{ askId: ask.askId }] }]);
  });

  it('stay quiet while the window is in front, or when paused', async () => {
    const shown = await notifyingShell();
    shown.window.show();
    await shown.bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' }).opened;
    expect(shown.notifications).toEqual([]);

    const paused = await notifyingShell({ paused: true });
    await paused.bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' }).opened;
    expect(paused.notifications).toEqual([]);
    paused.setPaused(false);
    await paused.bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Really?' }).opened;
    expect(paused.notifications.map((n) => n.options.body)).toEqual(['Really?']);
  });

  it('withdraw the notification of an ask answered elsewhere', async () => {
    const { bridge, notifications } = await notifyingShell();
    const ask = bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    await ask.opened;
    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: ask.askId, action: 'answer', value: false },
    });
    expect(answered.status).toBeLessThan(300);
    expect(notifications[0]?.closed).toBe(true);
  });

  it('show what an agent sends with user_notify', async () => {
    const { bridge, window, notifications } = await notifyingShell();
    bridge.context.hub.broadcast('notify', { agentId: 'claude', title: 'Build done', body: 'All 212 tests pass' });
    expect(notifications.map((n) => [n.options.title, n.options.body])).toEqual([
      ['claude: Build done', 'All 212 tests pass'],
    ]);
    notifications[0]?.click();
    expect(window.visible).toBe(true);
  });

  it('one that fails is noticed once: the line for the tray and the window, and a nudge for every ask after it', async () => {
    const shell = await notifyingShell({ platform: 'darwin' });
    const ask = (prompt: string) =>
      shell.bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt }).opened;
    await ask('Ship it?');
    expect(shell.problem()).toBeUndefined();
    // an unsigned macOS build: UNNotification refuses it
    shell.notifications[0]?.fail('Notifications are not allowed for this application');
    const line =
      'Desktop notifications fail here (Notifications are not allowed for this application): new asks show in the dock and the tray instead. An unsigned build of the app cannot show notifications on macOS: install a signed release.';
    expect(shell.failures).toEqual([line]);
    expect(shell.problem()).toBe(line);
    expect(shell.nudges()).toBe(1);
    await ask('Really?');
    shell.notifications[1]?.fail('Notifications are not allowed for this application');
    expect(shell.failures).toEqual([line]);
    expect(shell.nudges()).toBe(2);
  });

  it('do nothing where the system has no notifications', async () => {
    const { bridge, notifications } = await notifyingShell({ supported: false });
    await bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' }).opened;
    expect(notifications).toEqual([]);
  });
});
