import { describeZodError, PageCommands, type Json, type PageCommandName } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { ToolError, type ToolCall } from './tool.js';

/** Extra time the bridge gives a page beyond a command's own wait, for the round trip. */
export const PAGE_MARGIN_MS = 5_000;

declare const checked: unique symbol;
/** Page command arguments that passed checkPageArgs (a compile-time mark: only that function makes them). */
export type CheckedArgs = Json & { readonly [checked]: true };

/**
 * The arguments of a page command, checked with the schema the page agent checks them with: arguments the page
 * would refuse fail here, as a ToolError naming the field (under `fieldPrefix`, e.g. "args."), before anything
 * is sent or shown to the human.
 */
export function checkPageArgs<N extends PageCommandName>(cmd: N, args: unknown, fieldPrefix = ''): CheckedArgs {
  const parsed = PageCommands[cmd].safeParse(args ?? {});
  if (!parsed.success) {
    const { message, field } = describeZodError(parsed.error);
    throw new ToolError(
      `${cmd} args ${message}`,
      field ? `${fieldPrefix}${field}` : fieldPrefix.replace(/\.$/, '') || undefined,
    );
  }
  // the schemas describe JSON arguments, so what they accept is JSON
  return parsed.data as CheckedArgs;
}

/** Sends one page command on behalf of a tool, its arguments checked first (checkPageArgs; a bad one rejects). */
export async function runPageCommand(
  call: ToolCall,
  page: Page,
  cmd: PageCommandName,
  args: unknown,
  options: { frameId?: string; timeoutMs?: number } = {},
): Promise<Json> {
  return sendPageCommand(call, page, cmd, checkPageArgs(cmd, args), options);
}

/**
 * Sends one page command whose arguments were checked already and returns the page's answer. The request is
 * abandoned (and the tool fails) when the client cancels the call or its session ends.
 */
export async function sendPageCommand(
  call: ToolCall,
  page: Page,
  cmd: PageCommandName,
  checked: CheckedArgs,
  options: { frameId?: string; timeoutMs?: number } = {},
): Promise<Json> {
  // no frameId: the bridge sends a frame's ref (`f1:e3`) to that frame, anything else to the top document
  const sent = call.bridge.requests.send(page, cmd, checked, {
    ...(options.frameId ? { frameId: options.frameId } : {}),
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
