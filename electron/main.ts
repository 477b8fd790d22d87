// The desktop shell's entry, and the only main-process file that imports electron: it hands each setupX module
// the Electron API slices it uses, in order, from onReady(). Bundled to dist/electron/main.js (ESM).
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  globalShortcut,
  ipcMain,
  Menu,
  Notification,
  powerMonitor,
  session,
  shell,
  Tray,
} from 'electron';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StartupError } from '../bridge/bridge.js';
import { ConfigError, resolveConfig } from '../bridge/config.js';
import { createLogger } from '../bridge/log.js';
import { registerShim } from '../bridge/register/register.js';
import { APP_ID } from './app-id.js';
import { appMenu } from './app-menu.js';
import { installAppImageDesktopEntry } from './appimage-desktop.js';
import { startBridgeHost, tokenForWindow, type BridgeHost } from './bridge-host.js';
import type { HostNotice } from './channels.js';
import { COMPOSE_ARG, parseLaunchArgs } from './launch-args.js';
import { enabledFeatures, isWaylandSession } from './linux-desktop.js';
import { loginItem } from './login-item.js';
import { setupIpc } from './ipc.js';
import { startNodeCheck, type NodeCheck } from './node-check.js';
import { setupNotifications, type NotificationControl } from './notifications.js';
import { setupSessionEnd } from './session-end.js';
import { trackOpenAsks, type OpenAsks } from './open-asks.js';
import { registerWithClients, shimScript } from './register.js';
import { remoteFeed, type RemoteFeed } from './remote-feed.js';
import { runCommand } from './run-command.js';
import { openSettings, type SettingsStore } from './settings.js';
import { chooseShortcut, setupShortcut, type ShortcutState } from './shortcut.js';
import { setupSingleInstance } from './single-instance.js';
import { setupTray, type TrayControl } from './tray.js';
import { trayIcons } from './tray-icons.js';
import { trayNotice, trayPresence, type TrayPresence } from './tray-presence.js';
import { setupUpdates } from './updates.js';
import { setupWindow, type WindowControl } from './window.js';

const log = createLogger('aiti:desktop');
const RELEASES_URL = 'https://github.com/aiti-ai/aiti-bridge/releases';
const here = fileURLToPath(new URL('.', import.meta.url));
// build/ beside dist/: the repository in development, app.asar when packaged (electron-builder.yml files)
const buildDir = join(here, '..', '..', 'build');
const launch = parseLaunchArgs(process.argv.slice(1));
const mainScript = fileURLToPath(import.meta.url);
/** how this app is started from outside: the AppImage, the installed binary, or Electron on this main script */
const appCommand = [process.env.APPIMAGE ?? process.execPath, ...(app.isPackaged ? [] : [mainScript])];
const quoted = (command: string[]) =>
  command.map((part) => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ');

let quitting = false;
let control: WindowControl | undefined;
let host: BridgeHost | undefined;
let remote: RemoteFeed | undefined;
let closing: Promise<void> | undefined;

/** Closes our own bridge once (its open asks are answered first); later calls get the same promise. */
function closeBridge(): Promise<void> {
  closing ??= host?.kind === 'own' ? host.bridge.close() : Promise.resolve();
  return closing;
}

function tell(message: string): void {
  log.info(message);
  if (Notification.isSupported()) new Notification({ title: 'AITI Bridge', body: message }).show();
}

/** The human chose Quit in the "another bridge is running" dialog: nothing more to say, nothing to fall back to. */
let declinedAttach = false;

async function offerAttach(url: string, version: string): Promise<boolean> {
  const { response } = await dialog.showMessageBox({
    type: 'question',
    buttons: ['Open its window', 'Quit'],
    defaultId: 0,
    cancelId: 1,
    message: `Another AITI Bridge (${version}) is already running on ${url}.`,
    detail: 'Open its window here instead of starting a second bridge? Its asks show in this tray too.',
  });
  declinedAttach = response !== 0;
  return response === 0;
}

/** What every setup step may read: the bridge this app shows, and where things are. */
interface Started {
  host: BridgeHost;
  /** the desktop's own settings (desktop.json in the data dir) */
  settings: SettingsStore;
  mcpUrl: string;
  platform: NodeJS.Platform;
}

/** The app once Electron is ready: each step hands the Electron API slices it uses to one module. */
async function onReady(): Promise<void> {
  const started = await setupBridge();
  const tray: { control?: TrayControl } = {};
  const node = setupNodeCheck(started, () => tray.control?.refresh());
  // without a tray (GNOME without AppIndicator), a hidden window could not be brought back: closing it quits
  const presence = await trayPresence({ platform: started.platform, env: process.env, run: runCommand });
  setupPermissions();
  const window = setupMainWindow(started, presence);
  setupApplicationMenu(window);
  setupSessionEnd({ window: window.window, powerMonitor, closeBridge, quit: () => app.quit() });
  const shortcut = setupGlobalShortcut(started, window);
  const feed = setupAskFeed(started, window, (problem) => {
    log.warn(problem);
    tray.control?.refresh();
    window.hostChanged();
  });
  const notifications = feed?.notifications;
  setupWindowIpc(started, window, { node, presence, shortcut, notifications });
  tray.control = setupTrayIcon(started, window, { asks: feed?.asks, node, shortcut, notifications });
  if (shortcut.problem) tell(shortcut.problem);
  await setupAppUpdates();
  log.info(
    `window on ${started.host.url}/aiti/ui/ (${started.host.kind === 'own' ? 'bridge in this app' : 'attached'})`,
  );
}

/** Our own bridge on the configured port, or the one already there when the human chose to attach to it. */
async function setupBridge(): Promise<Started> {
  const config = resolveConfig(launch.bridge, process.env);
  host = await startBridgeHost({ config, offerAttach });
  const settings = openSettings(join(config.dataDir, 'aiti-bridge'));
  if (settings.problem) log.warn(settings.problem);
  return { host, settings, mcpUrl: `${host.url}/mcp/mcp`, platform: process.platform };
}

/** The search for a Node the registered shim can run on; a search that ends refreshes the tray. */
function setupNodeCheck(started: Started, onChange: () => void): NodeCheck {
  return startNodeCheck({
    platform: started.platform,
    env: process.env,
    home: homedir(),
    run: runCommand,
    mcpUrl: started.mcpUrl,
    onChange,
  });
}

/** The renderer asks for nothing: every permission is refused but writing to the clipboard and notifications. */
function setupPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permission === 'clipboard-sanitized-write' || permission === 'notifications'),
  );
}

function setupMainWindow(started: Started, presence: TrayPresence): WindowControl {
  const { host: bridgeHost, platform } = started;
  const loginLaunch = launch.hidden || (platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
  const window = (control = setupWindow({
    createWindow: (options) => new BrowserWindow(options),
    openExternal: (url) => shell.openExternal(url),
    url: `${bridgeHost.url}/aiti/ui/`,
    preload: join(here, 'preload.cjs'),
    icon: join(buildDir, 'icon.png'),
    isQuitting: () => quitting,
    // started at login: stay in the tray (macOS says so itself; elsewhere the login item passes --hidden)
    hidden: loginLaunch && presence !== 'missing',
    ...(presence === 'missing' ? { quitOnClose: () => app.quit() } : {}),
    onLoadError: (error) => log.error(`the window could not load ${bridgeHost.url}/aiti/ui/: ${error.message}`),
  }));
  if (launch.compose) window.compose('all');
  return window;
}

/** The menu made for this app (electron/app-menu.ts) in place of Electron's default one with its developer tools. */
function setupApplicationMenu(window: WindowControl): void {
  const template = appMenu({
    platform: process.platform,
    packaged: app.isPackaged,
    showWindow: () => window.show(),
    composeToAll: () => window.compose('all'),
    quit: () => app.quit(),
  });
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}

function setupGlobalShortcut(started: Started, window: WindowControl): ShortcutState {
  return setupShortcut({
    globalShortcut,
    choice: chooseShortcut(process.env, started.settings.get().shortcut, started.settings.file),
    settingsFile: started.settings.file,
    ...(isWaylandSession(started.platform, process.env)
      ? { wayland: { composeCommand: quoted([...appCommand, COMPOSE_ARG]) } }
      : {}),
    onPress: () => window.compose('all'),
  });
}

/** The window's two questions to main: its token, and what this desktop offers and lacks. */
function setupWindowIpc(
  started: Started,
  window: WindowControl,
  parts: {
    node: NodeCheck;
    presence: TrayPresence;
    shortcut: ShortcutState;
    notifications: NotificationControl | undefined;
  },
): void {
  const { node, presence, shortcut, notifications } = parts;
  const notices = async (): Promise<HostNotice[]> => {
    await node.latest();
    const lines: HostNotice[] = [];
    const problem = node.problem();
    if (problem) lines.push({ level: 'warning', text: problem });
    const noTray = trayNotice(presence);
    if (noTray) lines.push({ level: 'info', text: noTray });
    if (shortcut.note) lines.push({ level: 'info', text: shortcut.note });
    const failing = notifications?.problem();
    if (failing) lines.push({ level: 'warning', text: failing });
    return lines;
  };
  setupIpc({
    ipcMain,
    windowId: () => window.window.webContents.id,
    origin: new URL(started.host.url).origin,
    token: () => tokenForWindow(started.host),
    hostInfo: async () => ({
      platform: started.platform,
      shortcut: shortcut.accelerator,
      ...(shortcut.problem ? { shortcutProblem: shortcut.problem } : {}),
      notices: await notices(),
    }),
  });
}

/**
 * The human feed — in-process, or the attached bridge's stream when its token is known — and the notifications
 * of new asks it carries. Undefined when attached without the other bridge's token.
 */
function setupAskFeed(
  started: Started,
  window: WindowControl,
  onFailure: (problem: string) => void,
): { asks: OpenAsks; notifications: NotificationControl } | undefined {
  const bridgeHost = started.host;
  const feed =
    bridgeHost.kind === 'own'
      ? bridgeHost.bridge.context.hub
      : bridgeHost.token
        ? (remote = remoteFeed(bridgeHost.url, bridgeHost.token, { onImpostor: tell }))
        : undefined;
  if (!feed) return undefined;
  const asks = trackOpenAsks(feed);
  const notifications = setupNotifications({
    createNotification: (options) => {
      const notification = new Notification(options);
      // the release's smoke test reads this where the system shows no notification to a script
      notification.on('show', () => log.info(`notification shown: ${options.title}`));
      return notification;
    },
    isSupported: () => Notification.isSupported(),
    feed,
    asks,
    windowShown: () => window.isShown(),
    paused: () => started.settings.get().notificationsPaused,
    openAsk: (askId) => window.openAsk(askId),
    showWindow: () => window.show(),
    icon: join(buildDir, 'icon.png'),
    platform: started.platform,
    onFailure,
    // the tray's dot and count stay; this is the nudge a notification would have been
    attention: () => (app.dock ? app.dock.bounce('informational') : window.window.flashFrame(true)),
  });
  return { asks, notifications };
}

function setupTrayIcon(
  started: Started,
  window: WindowControl,
  parts: {
    asks: OpenAsks | undefined;
    node: NodeCheck;
    shortcut: ShortcutState;
    notifications: NotificationControl | undefined;
  },
): TrayControl {
  const { host: bridgeHost, platform, mcpUrl, settings } = started;
  const { asks, node, shortcut, notifications } = parts;
  return setupTray({
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    icons: trayIcons(join(buildDir, 'tray'), platform),
    ...(asks ? { asks } : {}),
    ...(bridgeHost.kind === 'attached' ? { attachedTo: bridgeHost.url } : {}),
    setBadge: (count) => app.setBadgeCount(count),
    mcpUrl,
    writeClipboard: (text) => clipboard.writeText(text),
    showWindow: () => window.show(),
    composeToAll: () => window.compose('all'),
    registerWithClients: async () =>
      registerWithClients({
        registerShim,
        home: homedir(),
        env: await node.env(),
        script: shimScript(join(here, '..', '..'), process.resourcesPath),
        // a fresh look: the human may have installed Node after the tray said there was none
        node: () => node.again(),
        platform,
        mcpUrl,
      }),
    tell,
    startAtLogin: loginItem({
      platform,
      app,
      execPath: process.env.APPIMAGE ?? process.execPath,
      packaged: app.isPackaged,
      mainScript,
      autostartDir: join(process.env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'autostart'),
    }),
    notificationsPaused: {
      get: () => settings.get().notificationsPaused,
      set: (on) => settings.update({ notificationsPaused: on }),
    },
    problems: () => [shortcut.problem, node.problem(), notifications?.problem()].filter((p): p is string => Boolean(p)),
    quit: () => app.quit(),
  });
}

/**
 * Updates from GitHub releases, in an installed app only (electron-updater skips a development build anyway): the
 * updater for how this copy was installed, a look now and daily, and a question before anything is installed.
 */
async function setupAppUpdates(): Promise<void> {
  if (!app.isPackaged) return;
  // bundled into main.js and loaded only here: electron-updater needs Electron's app, net and autoUpdater
  const { AppImageUpdater, DebUpdater, MacUpdater, NsisUpdater, RpmUpdater } = await import('electron-updater');
  const linuxPackage = process.platform === 'linux' && !process.env.APPIMAGE;
  const updater =
    process.platform === 'win32'
      ? new NsisUpdater()
      : process.platform === 'darwin'
        ? new MacUpdater()
        : !linuxPackage
          ? new AppImageUpdater()
          : packageType() === 'rpm'
            ? new RpmUpdater()
            : new DebUpdater();
  updater.logger = {
    info: () => undefined,
    warn: (m: unknown) => log.warn(String(m)),
    error: (m: unknown) => log.warn(String(m)),
  };
  setupUpdates({
    updater,
    // a deb or rpm belongs to the package manager: the app says a version is out, it does not install it
    kind: linuxPackage ? 'announce' : 'install',
    currentVersion: app.getVersion(),
    releasesUrl: RELEASES_URL,
    ask: async (version) => {
      const { response } = await dialog.showMessageBox({
        type: 'info',
        buttons: ['Install and restart', 'Later'],
        defaultId: 0,
        cancelId: 1,
        message: `AITI Bridge ${version} is available (this is ${app.getVersion()}).`,
        detail: 'Installing downloads it and restarts the app; its open asks are answered "cancelled" first.',
      });
      return response === 0;
    },
    tell,
    warn: (message) => log.warn(message),
    every: (ms, check) => {
      const timer = setInterval(check, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  });
}

/** What electron-builder wrote beside the asar of a deb or an rpm ("deb", "rpm"); undefined elsewhere. */
function packageType(): string | undefined {
  try {
    return readFileSync(join(process.resourcesPath, 'package-type'), 'utf8').trim();
  } catch {
    return undefined;
  }
}

/**
 * A start that failed: the reason in an error box, then exit 2 (scripts/start.js then does not run the headless
 * bridge, which would meet the same problem), or 1 for a bug. A human who chose Quit gets a quiet exit 0.
 */
function fail(error: unknown): void {
  if (declinedAttach) {
    log.info('the human chose Quit instead of opening the other bridge');
    app.exit(0);
    return;
  }
  const known = error instanceof ConfigError || error instanceof StartupError;
  const message = known ? (error as Error).message : ((error as Error).stack ?? String(error));
  log.error(message);
  dialog.showErrorBox('AITI Bridge cannot start', message);
  app.exit(known ? 2 : 1);
}

function main(): void {
  // a second launch brings the window forward, unless it is the login item starting while we already run
  const onSecondInstance = (argv: string[]) => {
    const again = parseLaunchArgs(argv.slice(1));
    if (again.compose) control?.compose('all');
    else if (!again.hidden) control?.show();
  };
  if (!setupSingleInstance({ app, onSecondInstance })) return;
  // before ready: Chromium reads its features once (Wayland's global shortcuts need the portal)
  const features = enabledFeatures(process.platform, process.env, app.commandLine.getSwitchValue('enable-features'));
  if (features) app.commandLine.appendSwitch('enable-features', features);
  // Windows shows notifications only for an app with an AppUserModelID (electron-builder.yml appId)
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  // before any portal is asked: an AppImage installs no .desktop file naming the app id (app-id.ts)
  const entry = installAppImageDesktopEntry({
    appImage: process.platform === 'linux' ? process.env.APPIMAGE : undefined,
    dataHome: process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share'),
    icon: join(buildDir, 'icon.png'),
  });
  if (entry) log.info(entry);
  app.on('before-quit', () => {
    quitting = true;
  });
  // a SIGTERM (logout, `kill`, a service manager) quits like the tray's Quit: open asks are answered first
  process.once('SIGTERM', () => app.quit());
  // the window hides to the tray instead of closing; the app quits from the tray menu only
  app.on('window-all-closed', () => undefined);
  app.on('activate', () => control?.show());
  let closed = false;
  app.on('will-quit', (event) => {
    globalShortcut.unregisterAll();
    remote?.close();
    if (host?.kind !== 'own' || closed) return;
    event.preventDefault();
    void closeBridge().finally(() => {
      closed = true;
      app.quit();
    });
  });
  app.whenReady().then(onReady).catch(fail);
}

main();
