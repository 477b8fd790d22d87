import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { Channel, type AitiDesktopApi } from '../../electron/channels.js';
import { ensureElectronBuilt } from './built.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs the built preload the way a sandboxed renderer does: CommonJS, with a `require` that knows only
 * `electron` (contextBridge + ipcRenderer fakes). Returns what it exposed and what it sent.
 */
function loadPreload() {
  const exposed = new Map<string, unknown>();
  const invoked: string[] = [];
  const listeners = new Map<string, Array<(event: unknown, ...args: unknown[]) => void>>();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string) => {
        invoked.push(channel);
        return channel === Channel.Token ? 'the-token' : undefined;
      },
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) =>
        listeners.set(channel, [...(listeners.get(channel) ?? []), listener]),
      removeListener: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) =>
        listeners.set(
          channel,
          (listeners.get(channel) ?? []).filter((l) => l !== listener),
        ),
    },
  };
  const source = readFileSync(join(ROOT, 'dist', 'electron', 'preload.cjs'), 'utf8');
  const module = { exports: {} };
  runInNewContext(source, {
    module,
    exports: module.exports,
    require: (name: string) => {
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require "${name}"`);
      return electron;
    },
  });
  const emit = (channel: string, ...args: unknown[]) => {
    for (const listener of listeners.get(channel) ?? []) listener({ sender: 'main' }, ...args);
  };
  return { exposed, invoked, emit, api: exposed.get('aiti') as AitiDesktopApi };
}

describe('the preload', () => {
  beforeAll(() => {
    ensureElectronBuilt();
  });

  it('is CommonJS needing nothing but electron, and exposes window.aiti with named methods only', () => {
    const { exposed, api } = loadPreload();
    expect([...exposed.keys()]).toEqual(['aiti']);
    expect(Object.keys(api).sort()).toEqual(['hostInfo', 'onCompose', 'onHostChange', 'onOpenAsk', 'token']);
  });

  it('token() asks main on the token channel', async () => {
    const { api, invoked } = loadPreload();
    await expect(api.token()).resolves.toBe('the-token');
    expect(invoked).toEqual([Channel.Token]);
  });

  it('onCompose and onOpenAsk hand over the request, without the IPC event, until removed', () => {
    const { api, emit } = loadPreload();
    const seen: unknown[] = [];
    const stopCompose = api.onCompose((request) => seen.push(request));
    api.onOpenAsk((request) => seen.push(request));
    emit(Channel.Compose, { to: 'all' });
    emit(Channel.OpenAsk, { askId: 'ask-1' });
    stopCompose();
    emit(Channel.Compose, { to: 'all' });
    expect(seen).toEqual([{ to: 'all' }, { askId: 'ask-1' }]);
  });

  it('onHostChange calls back when main says what hostInfo answers changed, with nothing from the IPC event', () => {
    const { api, emit } = loadPreload();
    const seen: unknown[][] = [];
    const stop = api.onHostChange((...args: unknown[]) => seen.push(args));
    emit(Channel.HostChanged);
    stop();
    emit(Channel.HostChanged);
    expect(seen).toEqual([[]]);
  });
});
