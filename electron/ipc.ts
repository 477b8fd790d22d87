import { Channel, type HostInfo } from './channels.js';

/** What main needs to know about the sender of an IPC message (a subset of Electron's IpcMainInvokeEvent). */
export interface IpcSender {
  sender: { id: number };
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcDeps {
  ipcMain: { handle(channel: string, listener: (event: IpcSender) => unknown): void };
  /** the webContents id of the shell's window: the only one allowed to ask */
  windowId(): number;
  /** the renderer's origin, e.g. http://127.0.0.1:8777 */
  origin: string;
  /** the human's token, once the bridge proved it still holds it (bridge-host.ts tokenForWindow); rejects otherwise */
  token(): string | Promise<string>;
  /** may wait for the desktop checks (the Node search) to finish */
  hostInfo(): HostInfo | Promise<HostInfo>;
}

/** Refuses IPC from anything but the main frame of our window showing the bridge's own renderer. */
export function checkSender(event: IpcSender, windowId: number, origin: string): void {
  const frame = event.senderFrame;
  const url = frame?.url ?? '(no frame)';
  let senderOrigin = '';
  try {
    senderOrigin = new URL(url).origin;
  } catch {
    // not a URL: refused below
  }
  if (event.sender.id !== windowId || !frame || frame.parent !== null || senderOrigin !== origin) {
    throw new Error(`IPC refused: the sender ${url} is not the AITI window (${origin})`);
  }
}

/** Answers the preload's named invokes (token, host info), each after checking the sender. */
export function setupIpc(deps: IpcDeps): void {
  const handle = (channel: Channel, answer: () => unknown) =>
    deps.ipcMain.handle(channel, (event) => {
      checkSender(event, deps.windowId(), deps.origin);
      return answer();
    });
  handle(Channel.Token, deps.token);
  handle(Channel.HostInfo, deps.hostInfo);
}
