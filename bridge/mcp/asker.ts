import { askTheHuman, type AskMode } from '../asks/ask-human.js';
import type { Asker, AskAnswer } from '../asks/asker.js';
import type { AskSpec } from '../protocol/index.js';
import { resolvePage } from './resolve-page.js';
import type { ToolCall } from './tool.js';

/** A tool call as the asks see it (the Asker port): its agent, its signal, its progress notifications. */
export function askerOf(call: ToolCall): Asker {
  return {
    get agentId() {
      return call.agent.agentId;
    },
    signal: call.signal,
    progress: (message, progress) => call.progress(message, progress),
    ...(call.patienceMs !== undefined ? { patienceMs: call.patienceMs } : {}),
  };
}

/** The user_* tools' way to ask: the human answers on a card, this call waits (or not, with async). */
export function askHuman(call: ToolCall, spec: Omit<AskSpec, 'agentId'>, mode: AskMode = {}): Promise<AskAnswer> {
  return askTheHuman(call.bridge, askerOf(call), spec, mode);
}

/** The page an ask is about, for the window's label: the one named, else the one bound by aiti_hello, if any. */
export function askedAbout(call: ToolCall, pageId: string | undefined): { pageId?: string; pageUrl?: string } {
  const page = pageId
    ? resolvePage(call, pageId)
    : call.agent.pageId
      ? call.bridge.pages.get(call.agent.pageId)
      : undefined;
  return page ? { pageId: page.pageId, pageUrl: page.url } : {};
}
