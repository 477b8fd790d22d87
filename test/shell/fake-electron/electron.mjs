// A fake of the Electron main-process API, enough to run dist/electron/main.js under plain Node. Everything the
// app does that a human would see (window URL, tray tooltip and menu, notifications, dialogs) is written as JSON
// to $FAKE_ELECTRON_REPORT after each change. SIGTERM clicks the tray's "Quit" item.
import { EventEmitter } from 'node:events';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const report = {
  ready: false,
  window: undefined,
  tray: undefined,
  shortcuts: [],
  notifications: [],
  dialogs: [],
  ipc: {},
  permissions: {},
  badge: undefined,
  quit: false,
};
const save = () => {
  const file = process.env.FAKE_ELECTRON_REPORT;
  if (!file) return;
  // written whole, then renamed: the test never reads half a report
  writeFileSync(`${file}.tmp`, JSON.stringify(report));
  renameSync(`${file}.tmp`, file);
};

const appEvents = new EventEmitter();
/** Electron's Browser::is_quitting(): set once a quit got past before-quit */
let quitting = false;
const cancellable = () => ({
  defaultPrevented: false,
  preventDefault() {
    this.defaultPrevented = true;
  },
});

export const app = {
  isPackaged: false,
  // Chromium's switches, as main.ts sets them before ready
  commandLine: {
    switches: {},
    getSwitchValue(name) {
      return this.switches[name] ?? '';
    },
    appendSwitch(name, value = '') {
      this.switches[name] = value;
      report.switches = { ...this.switches };
      save();
    },
  },
  requestSingleInstanceLock: () => true,
  on(event, listener) {
    appEvents.on(event, listener);
    return app;
  },
  whenReady: () => Promise.resolve(),
  quit() {
    const before = cancellable();
    appEvents.emit('before-quit', before);
    if (before.defaultPrevented) return;
    quitting = true;
    const will = cancellable();
    appEvents.emit('will-quit', will);
    if (will.defaultPrevented) return;
    report.quit = true;
    save();
    process.exit(0);
  },
  exit(code) {
    report.exitCode = code;
    save();
    process.exit(code);
  },
  setBadgeCount(count) {
    report.badge = count;
    save();
    return true;
  },
  getLoginItemSettings: () => ({ openAtLogin: false }),
  setLoginItemSettings: () => undefined,
};

/** the app's window and tray, once created */
const created = {};
let nextId = 1;
export class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    created.window = this;
    this.visible = false;
    this.webContents = Object.assign(new EventEmitter(), {
      id: nextId++,
      sent: [],
      send: (channel, ...args) => {
        report.window.sent.push({ channel, args });
        save();
      },
      isLoading: () => false,
      setWindowOpenHandler: (handler) => (this.openHandler = handler),
    });
    report.window = { options, url: undefined, visible: false, sent: [] };
    save();
  }
  async loadURL(url) {
    report.window.url = url;
    save();
  }
  show() {
    report.window.visible = this.visible = true;
    save();
  }
  hide() {
    report.window.visible = this.visible = false;
    save();
  }
  focus() {}
  restore() {}
  isVisible() {
    return this.visible;
  }
  isMinimized() {
    return false;
  }
  isFocused() {
    return this.visible;
  }
  flashFrame(flag) {
    report.window.flashing = flag;
    save();
  }
}

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    created.tray = this;
    report.tray = { image, tooltip: '', menu: [] };
    save();
  }
  setToolTip(text) {
    report.tray.tooltip = text;
    save();
  }
  setImage(image) {
    report.tray.image = image;
    save();
  }
  setContextMenu(menu) {
    this.template = menu.template;
    report.tray.menu = menu.template.filter((i) => i.type !== 'separator').map((i) => i.label);
    save();
  }
}

export const Menu = {
  buildFromTemplate: (template) => ({ template }),
  // the application menu, as its labels and roles: [label, [item label or role …]]
  setApplicationMenu(menu) {
    report.appMenu = menu.template.map((m) => [m.label, (m.submenu ?? []).map((i) => i.label ?? i.role ?? i.type)]);
    save();
  },
};

export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    report.notifications.push({ title: this.options.title, body: this.options.body });
    save();
    // an unsigned macOS build: UNNotification refuses every notification (Electron 42+ emits `failed`)
    const refusal = process.env.FAKE_NOTIFICATION_FAILS;
    if (refusal) setImmediate(() => this.emit('failed', {}, refusal));
  }
  close() {}
}

export const globalShortcut = {
  register(accelerator) {
    const held = process.env.FAKE_SHORTCUT_HELD === accelerator;
    report.shortcuts.push({ accelerator, registered: !held });
    save();
    return !held;
  },
  unregisterAll() {},
};

// The window's own renderer asks each channel once; so does a page of another origin, which must be refused.
export const ipcMain = {
  async handle(channel, handler) {
    const frame = (url) => ({ sender: { id: created.window.webContents.id }, senderFrame: { url, parent: null } });
    const result = {};
    try {
      result.answer = await handler(frame(report.window.url));
    } catch (error) {
      result.error = error.message;
    }
    try {
      await handler(frame('http://localhost:3000/'));
      result.stranger = 'answered';
    } catch (error) {
      result.stranger = error.message;
    }
    report.ipc[channel] = result;
    save();
  },
};

export const session = {
  defaultSession: {
    setPermissionRequestHandler(handler) {
      for (const permission of ['notifications', 'media', 'geolocation', 'clipboard-sanitized-write']) {
        handler(null, permission, (allowed) => (report.permissions[permission] = allowed));
      }
      save();
    },
  },
};

// the system's power events; SIGPWR below announces a shutdown
export const powerMonitor = new EventEmitter();

export const clipboard = { writeText: (text) => ((report.clipboard = text), save()) };
export const shell = { openExternal: async (url) => ((report.opened = url), save()) };
export const dialog = {
  showErrorBox(title, content) {
    report.dialogs.push({ kind: 'error', title, content });
    save();
  },
  async showMessageBox(options) {
    report.dialogs.push({ kind: 'question', message: options.message });
    save();
    return { response: process.env.FAKE_ATTACH === 'yes' ? 0 : 1 };
  },
};

process.on('SIGTERM', () => {
  const quit = created.tray?.template?.find((item) => item.label === 'Quit AITI Bridge');
  if (quit) quit.click();
  else process.exit(143);
});

// A second launch (SIGUSR2: a person starts the app again; SIGHUP: the login item starts it with --hidden),
// each while the window is hidden in the tray.
const launchAgain = (argv) => {
  created.window?.hide();
  report.secondLaunches = (report.secondLaunches ?? 0) + 1;
  appEvents.emit('second-instance', {}, argv);
  save();
};
// the arguments of a launch by hand: $FAKE_ELECTRON_REPORT.argv when the test wrote one (JSON), else none
process.on('SIGUSR2', () => {
  const file = `${process.env.FAKE_ELECTRON_REPORT}.argv`;
  launchAgain(['/opt/aiti-bridge', ...(existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [])]);
});

// SIGTTIN: the human clicks the window's close button; the window closes unless the app prevents it
process.on('SIGTTIN', () => {
  const event = cancellable();
  created.window?.emit('close', event);
  report.window.closed = !event.defaultPrevented;
  if (report.window.closed) report.window.visible = false;
  save();
});

// Windows logs off (SIGWINCH) as Electron 44+ has it: the window's query-session-end, which the app may hold up
// (preventDefault); if it does not, session-end, after whose handlers a process that is not quitting is
// terminated. Linux or macOS shuts down (SIGPWR: powerMonitor's shutdown, whose preventDefault asks the system
// to wait).
process.on('SIGWINCH', () => {
  const query = cancellable();
  created.window?.emit('query-session-end', query);
  report.sessionEndHeld = query.defaultPrevented;
  save();
  if (query.defaultPrevented) return;
  created.window?.emit('session-end', cancellable());
  if (quitting) return;
  report.terminated = true;
  save();
  process.kill(process.pid, 'SIGKILL');
});
process.on('SIGPWR', () => {
  const event = cancellable();
  powerMonitor.emit('shutdown', event);
  report.shutdownDelayed = event.defaultPrevented;
  save();
});
process.on('SIGHUP', () => launchAgain(['/opt/aiti-bridge', '--hidden']));
