import type { Menu } from 'electron';
import type { OpenAsks } from './open-asks.js';

/** One item of the tray menu, as handed to Electron's Menu.buildFromTemplate. */
export interface TrayMenuItem {
  label?: string;
  type?: 'normal' | 'separator' | 'checkbox';
  checked?: boolean;
  enabled?: boolean;
  click?: () => void;
}

/** The parts of an Electron Tray the shell uses. */
export interface ShellTray {
  setToolTip(text: string): void;
  setImage(image: string): void;
  setContextMenu(menu: Menu | null): void;
  on(event: 'click', listener: () => void): unknown;
}

/** A checkbox of the menu backed by a stored value. */
export interface Toggle {
  get(): boolean;
  /** throws an Error whose message the human reads when the value cannot be set here */
  set(on: boolean): void;
}

export interface TrayDeps {
  createTray(image: string): ShellTray;
  buildMenu(template: TrayMenuItem[]): Menu;
  icons: { idle: string; attention: string };
  /** open asks (absent when attached to another bridge whose token is unknown) */
  asks?: OpenAsks;
  /** the URL of the other bridge whose window this app shows, when it attached instead of running its own */
  attachedTo?: string;
  /** the dock/taskbar badge where the platform has one (app.setBadgeCount) */
  setBadge?(count: number): void;
  mcpUrl: string;
  /** Electron's clipboard.writeText, a promise since Electron 44 (it rejects when the clipboard cannot be written) */
  writeClipboard(text: string): Promise<void> | void;
  showWindow(): void;
  composeToAll(): void;
  /** runs the --register-shim logic; resolves with a line for the human */
  registerWithClients(): Promise<string>;
  /** tells the human something (a notification) */
  tell(message: string): void;
  startAtLogin: Toggle;
  notificationsPaused: Toggle;
  /** extra lines for the tooltip and the menu, e.g. a shortcut that could not be registered */
  problems(): string[];
  quit(): void;
}

export interface TrayControl {
  readonly tray: ShellTray;
  /** rebuilds the tooltip, icon and menu from the current state */
  refresh(): void;
  stop(): void;
}

export function asksLabel(count: number): string {
  return count === 0 ? 'no open asks' : count === 1 ? '1 open ask' : `${count} open asks`;
}

/** The tray icon: a tooltip and icon that show open asks, and the menu of the shell's actions. */
export function setupTray(deps: TrayDeps): TrayControl {
  const tray = deps.createTray(deps.icons.idle);
  tray.on('click', deps.showWindow);

  const head = deps.attachedTo ? `AITI Bridge (attached to ${deps.attachedTo})` : 'AITI Bridge';
  const status = (count: number | undefined) =>
    `${head} — ${count === undefined ? 'open asks unknown' : asksLabel(count)}`;
  const menu = (count: number | undefined): TrayMenuItem[] => [
    { label: status(count), enabled: false },
    ...deps.problems().map((problem): TrayMenuItem => ({ label: `⚠ ${problem}`, enabled: false })),
    { type: 'separator' },
    { label: 'Open window', click: deps.showWindow },
    { label: 'Push to all…', click: deps.composeToAll },
    {
      label: 'Copy MCP URL',
      // a failure says so instead of becoming an unhandled rejection in the main process
      click: () => {
        Promise.resolve(deps.writeClipboard(deps.mcpUrl)).catch((error: Error) =>
          deps.tell(`Copying the MCP URL failed: ${error.message}`),
        );
      },
    },
    {
      label: 'Register with MCP clients',
      click: () => {
        deps
          .registerWithClients()
          .then(deps.tell, (error: Error) => deps.tell(`Registering with MCP clients failed: ${error.message}`));
      },
    },
    { type: 'separator' },
    toggle('Start at login', deps.startAtLogin),
    toggle('Pause notifications', deps.notificationsPaused),
    { type: 'separator' },
    { label: 'Quit AITI Bridge', click: deps.quit },
  ];
  const toggle = (label: string, value: Toggle): TrayMenuItem => ({
    label,
    type: 'checkbox',
    checked: value.get(),
    click: () => {
      try {
        value.set(!value.get());
      } catch (error) {
        deps.tell((error as Error).message);
      }
      refresh();
    },
  });

  const refresh = () => {
    const count = deps.asks?.list().length;
    tray.setToolTip([status(count), ...deps.problems()].join('\n'));
    tray.setImage(count ? deps.icons.attention : deps.icons.idle);
    deps.setBadge?.(count ?? 0);
    // Linux shows a changed menu only when it is set again
    tray.setContextMenu(deps.buildMenu(menu(count)));
  };
  const stopCount = deps.asks?.onCountChange(refresh);
  refresh();
  return { tray, refresh, stop: () => stopCount?.() };
}
