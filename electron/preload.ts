// The window's preload: sandboxed, so it is bundled to CommonJS (dist/electron/preload.cjs) with only `electron`
// left external. It exposes named methods only; nothing can send or listen on an arbitrary channel.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { Channel, type AitiDesktopApi, type ComposeRequest, type HostInfo, type OpenAskRequest } from './channels.js';

function listen<T>(channel: Channel, listener: (request: T) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, request: T) => listener(request);
  ipcRenderer.on(channel, wrapped);
  return () => {
    ipcRenderer.removeListener(channel, wrapped);
  };
}

const api: AitiDesktopApi = {
  token: () => ipcRenderer.invoke(Channel.Token) as Promise<string>,
  hostInfo: () => ipcRenderer.invoke(Channel.HostInfo) as Promise<HostInfo>,
  onCompose: (listener) => listen<ComposeRequest>(Channel.Compose, listener),
  onOpenAsk: (listener) => listen<OpenAskRequest>(Channel.OpenAsk, listener),
  onHostChange: (listener) => listen<void>(Channel.HostChanged, () => listener()),
};

contextBridge.exposeInMainWorld('aiti', api);
