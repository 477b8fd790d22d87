import { describe, expect, it } from 'vitest';
import { Channel } from '../../electron/channels.js';
import { setupIpc, type IpcSender } from '../../electron/ipc.js';

function ipc() {
  const handlers = new Map<string, (event: IpcSender) => unknown>();
  setupIpc({
    ipcMain: { handle: (channel, listener) => handlers.set(channel, listener) },
    windowId: () => 7,
    origin: 'http://127.0.0.1:8777',
    token: () => 'the-token',
    hostInfo: () => ({ platform: 'linux', shortcut: 'CommandOrControl+Shift+Space', notices: [] }),
  });
  const invoke = (channel: Channel, event: IpcSender) => {
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return handler(event);
  };
  return { invoke, channels: [...handlers.keys()] };
}

const fromWindow: IpcSender = {
  sender: { id: 7 },
  senderFrame: { url: 'http://127.0.0.1:8777/aiti/ui/', parent: null },
};

describe('IPC between the window and main', () => {
  it('answers only the named channels of the preload', () => {
    expect(ipc().channels.sort()).toEqual([Channel.HostInfo, Channel.Token].sort());
  });

  it('gives the token to the window showing the bridge renderer', () => {
    const { invoke } = ipc();
    expect(invoke(Channel.Token, fromWindow)).toBe('the-token');
    expect(invoke(Channel.HostInfo, fromWindow)).toEqual({
      platform: 'linux',
      shortcut: 'CommandOrControl+Shift+Space',
      notices: [],
    });
  });

  it('refuses another webContents', () => {
    const { invoke } = ipc();
    expect(() => invoke(Channel.Token, { ...fromWindow, sender: { id: 8 } })).toThrow(
      'IPC refused: the sender http://127.0.0.1:8777/aiti/ui/ is not the AITI window (http://127.0.0.1:8777)',
    );
  });

  it('refuses a page of another origin in our window (after a navigation slipped through)', () => {
    const { invoke } = ipc();
    const event = { sender: { id: 7 }, senderFrame: { url: 'http://localhost:3000/', parent: null } };
    expect(() => invoke(Channel.Token, event)).toThrow('IPC refused: the sender http://localhost:3000/');
  });

  it('refuses a subframe, even of our origin, and a sender without a frame', () => {
    const { invoke } = ipc();
    const sub = { sender: { id: 7 }, senderFrame: { url: 'http://127.0.0.1:8777/aiti/ui/', parent: {} } };
    expect(() => invoke(Channel.Token, sub)).toThrow('IPC refused');
    expect(() => invoke(Channel.HostInfo, { sender: { id: 7 }, senderFrame: null })).toThrow(
      'IPC refused: the sender (no frame)',
    );
  });
});
