// Fake slices of the Electron API, shaped like the interfaces the shell's modules take. They record what the
// modules did, so tests assert on what the human would see (a hidden window, a menu item, a notification).
import type { BrowserWindowConstructorOptions, Menu } from 'electron';
import type { ShellNotification } from '../../electron/notifications.js';
import type { ShellTray, TrayMenuItem } from '../../electron/tray.js';
import type { ShellWebContents, ShellWindow } from '../../electron/window.js';

type Listener = (...args: never[]) => unknown;

class Emitter {
  private readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    const wrapped = ((...args: never[]) => {
      this.listeners.set(
        event,
        (this.listeners.get(event) ?? []).filter((l) => l !== wrapped),
      );
      return listener(...args);
    }) as Listener;
    return this.on(event, wrapped);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (...a: unknown[]) => unknown)(...args);
  }
}

let nextId = 1;

export class FakeWebContents extends Emitter implements ShellWebContents {
  readonly id = nextId++;
  loading = true;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  openHandler: ((details: { url: string }) => { action: 'deny' } | { action: 'allow' }) | undefined;
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isLoading(): boolean {
    return this.loading;
  }
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void {
    this.openHandler = handler;
  }
  /** the renderer finished loading */
  finishLoad(): void {
    this.loading = false;
    this.emit('did-finish-load');
  }
  /** the renderer tries to navigate; returns whether it was prevented */
  navigate(url: string): boolean {
    let prevented = false;
    this.emit('will-navigate', { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export class FakeWindow extends Emitter implements ShellWindow {
  readonly webContents = new FakeWebContents();
  visible = false;
  minimized = false;
  focused = false;
  loadedUrl: string | undefined;
  closed = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  async loadURL(url: string): Promise<void> {
    this.loadedUrl = url;
    this.webContents.finishLoad();
  }
  show(): void {
    this.visible = true;
  }
  hide(): void {
    this.visible = false;
    this.focused = false;
  }
  focus(): void {
    this.focused = true;
  }
  restore(): void {
    this.minimized = false;
  }
  isVisible(): boolean {
    return this.visible;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isFocused(): boolean {
    return this.focused;
  }
  flashing = false;
  flashFrame(flag: boolean): void {
    this.flashing = flag;
  }
  /** the human clicks the window's close button; returns whether the window really closed */
  clickClose(): boolean {
    let prevented = false;
    this.emit('close', { preventDefault: () => (prevented = true) });
    if (!prevented) {
      this.closed = true;
      this.visible = false;
    }
    return this.closed;
  }
}

export class FakeTray extends Emitter implements ShellTray {
  tooltip = '';
  menu: TrayMenuItem[] = [];
  constructor(public image: string) {
    super();
  }
  setToolTip(text: string): void {
    this.tooltip = text;
  }
  setImage(image: string): void {
    this.image = image;
  }
  setContextMenu(menu: Menu | null): void {
    // buildMenu below hands the template through as the "Menu"
    this.menu = (menu as unknown as { template: TrayMenuItem[] } | null)?.template ?? [];
  }
  /** the item with this label, failing clearly when the menu has none */
  item(label: string): TrayMenuItem {
    const item = this.menu.find((i) => i.label === label);
    if (!item) throw new Error(`no menu item "${label}"; the menu has: ${this.labels().join(', ')}`);
    return item;
  }
  labels(): string[] {
    return this.menu.filter((i) => i.type !== 'separator').map((i) => i.label ?? '');
  }
  click(label: string): void {
    const item = this.item(label);
    if (!item.click) throw new Error(`menu item "${label}" does nothing when clicked`);
    item.click();
  }
}

/** Menu.buildFromTemplate stand-in: keeps the template so the fake tray can show it. */
export const buildMenu = (template: TrayMenuItem[]): Menu => ({ template }) as unknown as Menu;

export class FakeNotification extends Emitter implements ShellNotification {
  shown = false;
  closed = false;
  constructor(readonly options: { title: string; body: string; icon?: string }) {
    super();
  }
  show(): void {
    this.shown = true;
  }
  close(): void {
    this.closed = true;
  }
  click(): void {
    this.emit('click');
  }
  /** the system refuses to show it, as macOS does for an unsigned app */
  fail(error: string): void {
    this.emit('failed', {}, error);
  }
}
