import type { AskView } from '../bridge/protocol/asks.js';
import type { AskFeed, OpenAsks } from './open-asks.js';

/** The parts of an Electron Notification the shell uses. */
export interface ShellNotification {
  show(): void;
  close(): void;
  on(event: 'click', listener: () => void): unknown;
  /** macOS and Windows: the system did not show it (an unsigned macOS build's UNNotification: every time) */
  on(event: 'failed', listener: (event: unknown, error: string) => void): unknown;
}

export interface NotificationDeps {
  createNotification(options: { title: string; body: string; icon?: string }): ShellNotification;
  /** Electron's Notification.isSupported() */
  isSupported(): boolean;
  feed: AskFeed;
  asks: OpenAsks;
  /** whether the human sees the window now: then a new ask needs no notification */
  windowShown(): boolean;
  paused(): boolean;
  openAsk(askId: string): void;
  showWindow(): void;
  icon?: string;
  platform: NodeJS.Platform;
  /** the first notification failed: `problem` is the line the tray and the window show from now on */
  onFailure(problem: string): void;
  /** asks for the human's attention without a notification (the dock bounces, the taskbar button flashes) */
  attention(): void;
}

export interface NotificationControl {
  /** why notifications do not show here, once one failed; the tray and the window show this line */
  problem(): string | undefined;
  stop(): void;
}

const MAX_BODY = 200;
const MAX_NOTES = 20;
const clip = (text: string) => (text.length > MAX_BODY ? text.slice(0, MAX_BODY - 1) + '…' : text);

export function askTitle(ask: AskView): string {
  const what = ask.kind === 'page_command' ? 'wants to run a page command' : 'asks';
  return `${ask.agentId} ${what}`;
}

/** The line the tray and the window show once notifications failed: what happened and what stands in for them. */
export function notificationProblem(platform: NodeJS.Platform, error: string): string {
  const where = platform === 'darwin' ? 'the dock and the tray' : 'the tray and the taskbar';
  const unsigned =
    platform === 'darwin'
      ? ' An unsigned build of the app cannot show notifications on macOS: install a signed release.'
      : '';
  return `Desktop notifications fail here (${clip(error)}): new asks show in ${where} instead.${unsigned}`;
}

/**
 * A desktop notification for each new ask while the window is hidden (clicking it opens that card), and one for
 * each `notify` event an agent sends with user_notify. A notification whose ask ended is withdrawn. One that
 * fails (Electron's `failed`: since Electron 42 every notification of an unsigned macOS build) is reported once
 * through onFailure, and from then on each new ask also asks for attention another way.
 */
export function setupNotifications(deps: NotificationDeps): NotificationControl {
  // Electron drops the click handler of a notification that was garbage collected: keep them until they end
  const shown = new Map<string, ShellNotification>();
  let failure: string | undefined;
  const notify = (key: string, title: string, body: string, onClick: () => void) => {
    if (deps.paused() || !deps.isSupported()) return;
    if (failure) deps.attention();
    const notification = deps.createNotification({
      title,
      body: clip(body),
      ...(deps.icon ? { icon: deps.icon } : {}),
    });
    notification.on('click', () => {
      shown.delete(key);
      onClick();
    });
    notification.on('failed', (_event, error) => {
      shown.delete(key);
      if (failure) return;
      failure = notificationProblem(deps.platform, error || 'no reason given');
      deps.attention();
      deps.onFailure(failure);
    });
    shown.set(key, notification);
    notification.show();
    // agent notes are never withdrawn: keep only the latest ones referenced
    const notes = [...shown.keys()].filter((k) => k.startsWith('notify:'));
    for (const old of notes.slice(0, Math.max(0, notes.length - MAX_NOTES))) shown.delete(old);
  };

  const stopAsks = deps.asks.onNewAsk((ask) => {
    if (deps.windowShown()) return;
    notify(ask.askId, askTitle(ask), ask.prompt, () => deps.openAsk(ask.askId));
  });
  const stopCount = deps.asks.onCountChange(() => {
    const open = new Set(deps.asks.list().map((ask) => ask.askId));
    for (const [key, notification] of shown) {
      if (key.startsWith('notify:') || open.has(key)) continue;
      notification.close();
      shown.delete(key);
    }
  });
  let notes = 0;
  const stopFeed = deps.feed.subscribe((event) => {
    if (event.event !== 'notify') return;
    const { agentId, title, body } = event.data;
    notify(`notify:${++notes}`, title ? `${agentId}: ${title}` : agentId, body, deps.showWindow);
  });
  return {
    problem: () => failure,
    stop: () => {
      stopAsks();
      stopCount();
      stopFeed();
    },
  };
}
