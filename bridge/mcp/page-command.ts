import { MAIN_FRAME, type Json } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import type { ToolCall } from './tool.js';

/** Extra time the bridge gives a page beyond a command's own wait, for the round trip. */
export const PAGE_MARGIN_MS = 5_000;

/**
 * Sends one page command on behalf of a tool and returns the page's answer. The request is abandoned (and
 * the tool fails) when the client cancels the call or its session ends.
 */
export async function runPageCommand(
  call: ToolCall,
  page: Page,
  cmd: string,
  args: Json,
  options: { frameId?: string; timeoutMs?: number } = {},
): Promise<Json> {
  const sent = call.bridge.requests.send(page, cmd, args, {
    frameId: options.frameId ?? MAIN_FRAME,
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
  });
  if (call.signal.aborted) throw abortError(call.signal, cmd);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(call.signal, cmd));
    call.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([sent, aborted]);
  } finally {
    if (onAbort) call.signal.removeEventListener('abort', onAbort);
    // the page still answers later; that late answer is simply dropped
    sent.catch(() => undefined);
  }
}

function abortError(signal: AbortSignal, cmd: string): Error {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the call was cancelled';
  return new Error(`${cmd} abandoned: ${reason}`);
}

/** Page answers are JSON of any shape; tools return objects. */
export function asObject(value: Json): Record<string, Json> {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
}
