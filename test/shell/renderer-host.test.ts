// The desktop host contract end to end: the real window (dist/renderer, served by the bridge) in real Chromium,
// with the real preload bundle standing in for Electron's (its `electron` module bridged to the page), the real
// main-side IPC handlers checking the real sender frame, and setupWindow driving the page.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HostNotice } from '../../electron/channels.js';
import { setupIpc, type IpcSender } from '../../electron/ipc.js';
import { setupWindow, type ShellWindow, type WindowControl } from '../../electron/window.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WINDOW_ID = 1;

/** Runs the preload bundle in the page before the window's scripts, with `electron` bridged to the test. */
function preloadScript(): string {
  const source = readFileSync(join(ROOT, 'dist', 'electron', 'preload.cjs'), 'utf8');
  return `(() => {
    const listeners = {};
    const electron = {
      contextBridge: { exposeInMainWorld: (key, api) => { window[key] = Object.freeze(api); } },
      ipcRenderer: {
        invoke: (channel) => window.__aitiInvoke(channel),
        on: (channel, listener) => { (listeners[channel] ??= []).push(listener); },
        removeListener: (channel, listener) => {
          listeners[channel] = (listeners[channel] ?? []).filter((l) => l !== listener);
        },
      },
    };
    window.__aitiEmit = (channel, request) => (listeners[channel] ?? []).forEach((l) => l({}, request));
    const module = { exports: {} };
    (function (require, module, exports) {\n${source}\n})((name) => {
      if (name !== 'electron') throw new Error('a sandboxed preload cannot require ' + name);
      return electron;
    }, module, module.exports);
  })();`;
}

/** A ShellWindow backed by a Chromium page: what setupWindow would get from new BrowserWindow(). */
function pageWindow(page: Page): ShellWindow & { visible: boolean } {
  let loading = true;
  let loaded: () => void = () => undefined;
  const whenLoaded = new Promise<void>((resolve) => (loaded = resolve));
  const win = {
    visible: false,
    webContents: {
      id: WINDOW_ID,
      send: (channel: string, request: unknown) =>
        void page.evaluate(
          ([c, r]) => (window as unknown as { __aitiEmit(c: unknown, r: unknown): void }).__aitiEmit(c, r),
          [channel, request],
        ),
      isLoading: () => loading,
      once: (_event: 'did-finish-load', listener: () => void) => void whenLoaded.then(listener),
      on: () => undefined,
      setWindowOpenHandler: () => undefined,
    },
    loadURL: async (url: string) => {
      await page.goto(url);
      loading = false;
      loaded();
    },
    show: () => void (win.visible = true),
    hide: () => void (win.visible = false),
    focus: () => undefined,
    restore: () => undefined,
    isVisible: () => win.visible,
    isMinimized: () => false,
    isFocused: () => win.visible,
    flashFrame: () => undefined,
    on: () => undefined,
  };
  return win;
}

async function desktopWindow(options: { shortcutProblem?: string; notices?: HostNotice[] } = {}) {
  // the host's notices as they stand when the window asks: a test may add one later and say so (hostChanged)
  const notices = options.notices ?? [];
  const bridge = await startBridge();
  const handlers = new Map<string, (event: IpcSender) => unknown>();
  setupIpc({
    ipcMain: { handle: (channel, listener) => handlers.set(channel, listener) },
    windowId: () => WINDOW_ID,
    origin: new URL(bridge.url).origin,
    token: () => bridge.token,
    hostInfo: async () => ({
      platform: 'linux',
      shortcut: 'CommandOrControl+Shift+Space',
      ...(options.shortcutProblem ? { shortcutProblem: options.shortcutProblem } : {}),
      notices: [...notices],
    }),
  });
  const browser = await launchBrowser();
  const page = await browser.newPage();
  await page.exposeBinding('__aitiInvoke', async (source, channel: string) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    const frame = source.frame;
    return handler({ sender: { id: WINDOW_ID }, senderFrame: { url: frame.url(), parent: frame.parentFrame() } });
  });
  await page.addInitScript({ content: preloadScript() });
  let win: (ShellWindow & { visible: boolean }) | undefined;
  const control: WindowControl = setupWindow({
    createWindow: () => (win = pageWindow(page)),
    openExternal: async () => undefined,
    url: `${bridge.url}/aiti/ui/`,
    preload: join(ROOT, 'dist', 'electron', 'preload.cjs'),
    isQuitting: () => false,
  });
  const status = () => page.locator('[role=status]').textContent();
  await waitFor(async () => (await status()) === 'Connected', 15_000, 'the window connected with the preload token');
  if (!win) throw new Error('no window');
  return { bridge, page, control, win, notices };
}

const activeElement = (page: Page) =>
  page.evaluate(() => ({
    tag: document.activeElement?.tagName,
    askId: document.activeElement?.getAttribute('data-ask-id'),
  }));

describe('the window in the desktop host', () => {
  beforeAll(() => {
    ensureElectronBuilt();
    if (!existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))) {
      throw new Error('the window is not built (dist/renderer/index.html); run "npm run build" first');
    }
  });

  it('connects with the token from the preload, with no token in its URL', async () => {
    const { page, win } = await desktopWindow();
    expect(page.url()).not.toContain('token');
    expect(win.visible).toBe(true);
    await expect(page.evaluate(() => Object.keys(window.aiti ?? {}).sort())).resolves.toEqual([
      'hostInfo',
      'onCompose',
      'onHostChange',
      'onOpenAsk',
      'token',
    ]);
  });

  it('shows the global shortcut the host registered, or why it could not', async () => {
    const { page } = await desktopWindow();
    await waitFor(
      async () => (await page.locator('.shortcuts kbd').first().textContent()) === 'CommandOrControl+Shift+Space',
    );
    const problem = 'the shortcut "CommandOrControl+Shift+Space" (from the default) is held by another app';
    const held = await desktopWindow({ shortcutProblem: problem });
    await waitFor(async () => (await held.page.locator('.card-error').textContent()) === problem, 5000, 'the problem');
  });

  it("shows the host's notices: a problem as an error, the rest as notes", async () => {
    const problem = 'MCP clients cannot run the aiti shim: it needs Node.js 20.11 or newer and none was found.';
    const note = 'This desktop shows no tray icons: closing this window quits AITI Bridge and answers its open asks.';
    const { page } = await desktopWindow({
      notices: [
        { level: 'warning', text: problem },
        { level: 'info', text: note },
      ],
    });
    await waitFor(async () => (await page.locator('.host-notice').count()) === 2, 5000, 'the notices');
    expect(await page.locator('.host-notice.card-error').textContent()).toBe(problem);
    expect(await page.locator('.host-notice.muted').textContent()).toBe(note);
  });

  it('a notice the host adds later (notifications that started failing) shows once the host says so', async () => {
    const { page, control, notices } = await desktopWindow();
    await waitFor(async () => (await page.locator('.shortcuts kbd').count()) > 0, 5000, 'the host info');
    const failing =
      'Desktop notifications fail here (Notifications are not allowed): new asks show in the dock and the tray instead.';
    notices.push({ level: 'warning', text: failing });
    control.hostChanged();
    await waitFor(async () => (await page.locator('.host-notice.card-error').count()) === 1, 5000, 'the new notice');
    expect(await page.locator('.host-notice.card-error').textContent()).toBe(failing);
  });

  it('the shortcut and "Push to all…" put the cursor in the composer addressed to all agents', async () => {
    const { page, control } = await desktopWindow();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    control.compose('all');
    await waitFor(async () => (await activeElement(page)).tag === 'TEXTAREA', 5000, 'the composer focused');
    expect(await page.locator('select[aria-label=recipient]').inputValue()).toBe('all');
  });

  it('a clicked notification brings its ask card into focus', async () => {
    const { bridge, page, control } = await desktopWindow();
    bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    const ask = bridge.context.asks.create({ kind: 'user_input', agentId: 'cursor', prompt: 'Table name?' });
    await waitFor(async () => (await page.locator(`[data-ask-id="${ask.askId}"]`).count()) === 1, 5000, 'the card');
    control.openAsk(ask.askId);
    await waitFor(async () => (await activeElement(page)).askId === ask.askId, 5000, 'the card focused');
  });
});
