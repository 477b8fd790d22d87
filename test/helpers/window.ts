import type { Bridge } from '../../bridge/bridge.js';
import type { AskView, StateEvent } from '../../bridge/protocol/index.js';
import { http } from './bridge.js';
import { SseClient } from './sse.js';

/** The human window as a test drives it: the role=ai stream (after its `state`) and POST /bridge/answer. */
export async function windowClient(bridge: Bridge) {
  const stream = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${encodeURIComponent(bridge.token)}`);
  const state = (await stream.next('state')).data as StateEvent;
  return {
    stream,
    state,
    nextAsk: async () => (await stream.next('ask', 10_000)).data as AskView,
    act: (body: Record<string, unknown>) => http(`${bridge.url}/bridge/answer`, { token: bridge.token, body }),
  };
}

/** What the window is shown when it connects (its first `state` event), read once: the open asks, agents, pages. */
export async function windowState(url: string, token: string): Promise<StateEvent> {
  const stream = await SseClient.open(`${url}/bridge/sse?role=ai&token=${encodeURIComponent(token)}`);
  try {
    return (await stream.next('state')).data as StateEvent;
  } finally {
    stream.close();
  }
}
