import { describe, expect, it } from 'vitest';
import { Channel } from '../../electron/channels.js';
import { setupWindow, type WindowDeps } from '../../electron/window.js';
import { FakeWindow } from './fakes.js';

const UI = 'http://127.0.0.1:8777/aiti/ui/';

function openWindow(overrides: Partial<WindowDeps> = {}) {
  let window: FakeWindow | undefined;
  const opened: string[] = [];
  let quitting = false;
  const control = setupWindow({
    createWindow: (options) => (window = new FakeWindow(options)),
    openExternal: async (url) => {
      opened.push(url);
    },
    url: UI,
    preload: '/app/dist/electron/preload.cjs',
    isQuitting: () => quitting,
    ...overrides,
  });
  if (!window) throw new Error('setupWindow created no window');
  return { control, window, opened, quit: () => (quitting = true) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the window', () => {
  it('runs the renderer isolated and sandboxed, without Node, with the preload', () => {
    const { window } = openWindow();
    expect(window.options.webPreferences).toMatchObject({
      preload: '/app/dist/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      webviewTag: false,
      // everything runs on this machine: no dictionaries fetched from Google's CDN
      spellcheck: false,
    });
  });

  it('loads the renderer from the bridge, without the token in the URL, and shows it', async () => {
    const { window } = openWindow();
    await settle();
    expect(window.loadedUrl).toBe(UI);
    expect(window.visible).toBe(true);
  });

  it('stays in the tray when launched at login', async () => {
    const { window } = openWindow({ hidden: true });
    await settle();
    expect(window.loadedUrl).toBe(UI);
    expect(window.visible).toBe(false);
  });

  it('hides to the tray when closed, and really closes when the app quits', async () => {
    const { window, quit } = openWindow();
    await settle();
    expect(window.clickClose()).toBe(false);
    expect(window.visible).toBe(false);
    quit();
    expect(window.clickClose()).toBe(true);
  });

  it('without a tray, closing the window quits the app instead of hiding it out of reach', async () => {
    let quits = 0;
    const { window, quit } = openWindow({ quitOnClose: () => quits++ });
    await settle();
    expect(window.clickClose()).toBe(false);
    expect(quits).toBe(1);
    // the app's quit comes back as a real close once it is quitting
    quit();
    expect(window.clickClose()).toBe(true);
    expect(quits).toBe(1);
  });

  it('refuses to navigate away from the window and opens web links in the browser instead', () => {
    const { window, opened } = openWindow();
    expect(window.webContents.navigate('https://example.com/docs')).toBe(true);
    expect(window.webContents.navigate('file:///etc/passwd')).toBe(true);
    expect(window.webContents.navigate('http://127.0.0.1:8777/bridge/messages')).toBe(true);
    expect(window.webContents.navigate('http://127.0.0.1:8777/aiti/ui/?reload')).toBe(false);
    expect(opened).toEqual(['https://example.com/docs', 'http://127.0.0.1:8777/bridge/messages']);
  });

  it('denies every new window; http(s) links open in the browser, other schemes nowhere', () => {
    const { window, opened } = openWindow();
    const handler = window.webContents.openHandler;
    expect(handler?.({ url: 'https://github.com/aiti' })).toEqual({ action: 'deny' });
    expect(handler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(handler?.({ url: 'smb://host/share' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://github.com/aiti']);
  });

  it('compose("all") brings the hidden window back with the composer addressed to all', async () => {
    const { control, window } = openWindow({ hidden: true });
    await settle();
    window.minimized = true;
    control.compose('all');
    expect(window.visible && !window.minimized && window.focused).toBe(true);
    expect(window.webContents.sent).toEqual([{ channel: Channel.Compose, args: [{ to: 'all' }] }]);
  });

  it('waits for the renderer to load before asking it to open a card', () => {
    let window: FakeWindow | undefined;
    const control = setupWindow({
      createWindow: (options) => {
        window = new FakeWindow(options);
        window.loadURL = () => new Promise(() => undefined); // still loading
        return window;
      },
      openExternal: async () => undefined,
      url: UI,
      preload: '/p.cjs',
      isQuitting: () => false,
    });
    control.openAsk('a1');
    expect(window?.webContents.sent).toEqual([]);
    window?.webContents.finishLoad();
    expect(window?.webContents.sent).toEqual([{ channel: Channel.OpenAsk, args: [{ askId: 'a1' }] }]);
  });

  it('counts as shown only when visible and not minimized', async () => {
    const { control, window } = openWindow();
    await settle();
    expect(control.isShown()).toBe(true);
    window.minimized = true;
    expect(control.isShown()).toBe(false);
    window.minimized = false;
    window.hide();
    expect(control.isShown()).toBe(false);
  });
});
