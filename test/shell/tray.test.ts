import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Channel } from '../../electron/channels.js';
import { loginItem } from '../../electron/login-item.js';
import { trackOpenAsks } from '../../electron/open-asks.js';
import { openSettings } from '../../electron/settings.js';
import { setupTray, type TrayDeps } from '../../electron/tray.js';
import { trayIcons } from '../../electron/tray-icons.js';
import { setupWindow } from '../../electron/window.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';
import { buildMenu, FakeTray, FakeWindow } from './fakes.js';

const BUILD_TRAY = join(import.meta.dirname, '..', '..', 'build', 'tray');
const ICONS = { idle: '/build/tray/tray.png', attention: '/build/tray/tray-ask.png' };

/** A tray on a real in-process bridge, with a fake window, clipboard and login-item folder. */
async function trayOnBridge(overrides: Partial<TrayDeps> = {}) {
  const bridge = await startBridge();
  const asks = trackOpenAsks(bridge.context.hub);
  let window: FakeWindow | undefined;
  const control = setupWindow({
    createWindow: (options) => (window = new FakeWindow(options)),
    openExternal: async () => undefined,
    url: `${bridge.url}/aiti/ui/`,
    preload: '/p.cjs',
    isQuitting: () => false,
    hidden: true,
  });
  const settings = openSettings(bridge.context.appDir);
  const autostartDir = join(tempDir(), 'autostart');
  const seen = { clipboard: '', told: [] as string[], badge: -1, quit: false };
  let tray: FakeTray | undefined;
  setupTray({
    createTray: (image) => (tray = new FakeTray(image)),
    buildMenu,
    icons: ICONS,
    asks,
    setBadge: (count) => (seen.badge = count),
    mcpUrl: `${bridge.url}/mcp/mcp`,
    writeClipboard: (text) => void (seen.clipboard = text),
    showWindow: () => control.show(),
    composeToAll: () => control.compose('all'),
    registerWithClients: async () => 'registered with Claude Code',
    tell: (message) => seen.told.push(message),
    startAtLogin: loginItem({
      platform: 'linux',
      app: { getLoginItemSettings: () => ({ openAtLogin: false }), setLoginItemSettings: () => undefined },
      execPath: '/opt/AITI Bridge/aiti-bridge-desktop',
      packaged: true,
      mainScript: '/opt/AITI Bridge/resources/app.asar/dist/electron/main.js',
      autostartDir,
    }),
    notificationsPaused: {
      get: () => settings.get().notificationsPaused,
      set: (on) => settings.update({ notificationsPaused: on }),
    },
    problems: () => [],
    quit: () => (seen.quit = true),
    ...overrides,
  });
  if (!tray || !window) throw new Error('no tray or window');
  return { bridge, tray, window, seen, settings, autostartDir };
}

describe('the tray icons', () => {
  it("are each system's own: ICO on Windows, template images for macOS' menu bar, the colour PNG on Linux", () => {
    const names = (platform: NodeJS.Platform) =>
      Object.values(trayIcons(BUILD_TRAY, platform)).map((file) => file.slice(BUILD_TRAY.length + 1));
    expect(names('win32')).toEqual(['tray.ico', 'tray-ask.ico']);
    // Electron makes a file whose name ends in "Template" a template image, which macOS tints for its bar
    expect(names('darwin')).toEqual(['trayTemplate.png', 'tray-askTemplate.png']);
    expect(names('linux')).toEqual(['tray.png', 'tray-ask.png']);
    for (const platform of ['win32', 'darwin', 'linux'] as const) {
      for (const file of Object.values(trayIcons(BUILD_TRAY, platform))) expect(existsSync(file), file).toBe(true);
    }
  });
});

describe('the tray', () => {
  it('offers the shell actions in its menu', async () => {
    const { tray } = await trayOnBridge();
    expect(tray.labels()).toEqual([
      'AITI Bridge — no open asks',
      'Open window',
      'Push to all…',
      'Copy MCP URL',
      'Register with MCP clients',
      'Start at login',
      'Pause notifications',
      'Quit AITI Bridge',
    ]);
  });

  it('shows the number of open asks in its tooltip, icon, badge and menu, live from the bridge', async () => {
    const { bridge, tray, seen } = await trayOnBridge();
    expect(tray.tooltip).toBe('AITI Bridge — no open asks');
    expect(tray.image).toBe(ICONS.idle);

    const first = bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    const second = bridge.context.asks.create({ kind: 'user_input', agentId: 'cursor', prompt: 'Name of the table?' });
    // an ask shows once it is on disk
    await Promise.all([first.opened, second.opened]);
    expect(tray.tooltip).toBe('AITI Bridge — 2 open asks');
    expect(tray.image).toBe(ICONS.attention);
    expect(seen.badge).toBe(2);
    expect(tray.labels()[0]).toBe('AITI Bridge — 2 open asks');

    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: first.askId, action: 'answer', value: true },
    });
    expect(answered.status).toBeLessThan(300);
    expect(tray.tooltip).toBe('AITI Bridge — 1 open ask');
    expect(seen.badge).toBe(1);
  });

  it('counts the asks already open when it starts', async () => {
    const bridge = await startBridge();
    await bridge.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' }).opened;
    let tray: FakeTray | undefined;
    setupTray({
      createTray: (image) => (tray = new FakeTray(image)),
      buildMenu,
      icons: ICONS,
      asks: trackOpenAsks(bridge.context.hub),
      mcpUrl: '',
      writeClipboard: () => undefined,
      showWindow: () => undefined,
      composeToAll: () => undefined,
      registerWithClients: async () => '',
      tell: () => undefined,
      startAtLogin: { get: () => false, set: () => undefined },
      notificationsPaused: { get: () => false, set: () => undefined },
      problems: () => [],
      quit: () => undefined,
    });
    expect(tray?.tooltip).toBe('AITI Bridge — 1 open ask');
  });

  it('"Open window" and a click on the icon bring the window back', async () => {
    const { tray, window } = await trayOnBridge();
    expect(window.visible).toBe(false);
    tray.click('Open window');
    expect(window.visible).toBe(true);
    window.hide();
    tray.emit('click');
    expect(window.visible).toBe(true);
  });

  it('"Push to all…" opens the composer addressed to all', async () => {
    const { tray, window } = await trayOnBridge();
    tray.click('Push to all…');
    expect(window.visible).toBe(true);
    expect(window.webContents.sent).toEqual([{ channel: Channel.Compose, args: [{ to: 'all' }] }]);
  });

  it('"Copy MCP URL" that fails says so, instead of an unhandled rejection (clipboard.writeText is a promise)', async () => {
    const { tray, seen } = await trayOnBridge({
      writeClipboard: async () => {
        throw new Error('the clipboard is held by another app');
      },
    });
    tray.click('Copy MCP URL');
    await waitFor(() => seen.told.length === 1, 2000, 'the human to be told');
    expect(seen.told).toEqual(['Copying the MCP URL failed: the clipboard is held by another app']);
  });

  it('"Copy MCP URL" puts the bridge MCP endpoint on the clipboard', async () => {
    const { bridge, tray, seen } = await trayOnBridge();
    tray.click('Copy MCP URL');
    expect(seen.clipboard).toBe(`${bridge.url}/mcp/mcp`);
    const health = await http(seen.clipboard.replace('/mcp/mcp', '/bridge/health'));
    expect(health.body).toMatchObject({ ok: true });
  });

  it('"Register with MCP clients" tells the outcome, or the failure', async () => {
    const { tray, seen } = await trayOnBridge();
    tray.click('Register with MCP clients');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen.told).toEqual(['registered with Claude Code']);

    const failing = await trayOnBridge({
      registerWithClients: async () => {
        throw new Error('~/.cursor/mcp.json is not valid JSON');
      },
    });
    failing.tray.click('Register with MCP clients');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failing.seen.told).toEqual(['Registering with MCP clients failed: ~/.cursor/mcp.json is not valid JSON']);
  });

  it('"Start at login" writes an autostart entry that starts hidden, and removes it', async () => {
    const { tray, autostartDir } = await trayOnBridge();
    const entry = join(autostartDir, 'aiti-bridge.desktop');
    expect(tray.item('Start at login').checked).toBe(false);
    tray.click('Start at login');
    expect(readFileSync(entry, 'utf8')).toContain('Exec="/opt/AITI Bridge/aiti-bridge-desktop" --hidden');
    expect(tray.item('Start at login').checked).toBe(true);
    tray.click('Start at login');
    expect(existsSync(entry)).toBe(false);
    expect(tray.item('Start at login').checked).toBe(false);
  });

  it('a toggle that cannot be set says why, and stays as it was', async () => {
    const why = 'Start at login needs the installed app';
    const { tray, seen } = await trayOnBridge({
      startAtLogin: {
        get: () => false,
        set: () => {
          throw new Error(why);
        },
      },
    });
    tray.click('Start at login');
    expect(seen.told).toEqual([why]);
    expect(tray.item('Start at login').checked).toBe(false);
  });

  it('"Pause notifications" is remembered in the desktop settings', async () => {
    const { tray, settings } = await trayOnBridge();
    tray.click('Pause notifications');
    expect(tray.item('Pause notifications').checked).toBe(true);
    expect(JSON.parse(readFileSync(settings.file, 'utf8'))).toMatchObject({ notificationsPaused: true });
    expect(openSettings(join(settings.file, '..')).get().notificationsPaused).toBe(true);
  });

  it('"Quit" quits', async () => {
    const { tray, seen } = await trayOnBridge();
    tray.click('Quit AITI Bridge');
    expect(seen.quit).toBe(true);
  });

  it('shows a problem (a shortcut held by another app) in its tooltip and menu', async () => {
    const problem = 'the shortcut "CommandOrControl+Shift+Space" (from the default) is held by another app';
    const { tray } = await trayOnBridge({ problems: () => [problem] });
    expect(tray.tooltip).toBe(`AITI Bridge — no open asks\n${problem}`);
    expect(tray.labels()).toContain(`⚠ ${problem}`);
  });

  it('names the bridge it is attached to, and says when it cannot count its asks', async () => {
    const { tray } = await trayOnBridge({ attachedTo: 'http://127.0.0.1:8777' });
    expect(tray.tooltip).toBe('AITI Bridge (attached to http://127.0.0.1:8777) — no open asks');
    const blind = await trayOnBridge({ attachedTo: 'http://127.0.0.1:8777', asks: undefined });
    expect(blind.tray.tooltip).toBe('AITI Bridge (attached to http://127.0.0.1:8777) — open asks unknown');
  });
});
