import { describeZodError, pageCommand, PageCommands, type Json, type PageCommandName } from '../protocol/index.js';
import { confirmPageCommand } from '../asks/page-gate.js';
import type { Page } from '../pages/registry.js';
import { askerOf } from './asker.js';
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

/** Where and how long: `timeoutMs` replaces the one the descriptor gives (config default, or its own wait). */
export interface SendOptions {
  frameId?: string;
  timeoutMs?: number;
}

/**
 * The one way a tool sends a page command, for `call`: the arguments checked (checkPageArgs), then the gate (a
 * command whose descriptor carries a danger waits for the human's yes; asks/page-gate.ts), then sent with the
 * descriptor's time-out, and abandoned (the tool fails) when the client cancels the call or its session ends.
 * Everything but the descriptor is the same for every command, so its flags mean the same from every tool.
 */
export async function sendPageCommand(
  call: ToolCall,
  page: Page,
  cmd: PageCommandName,
  args: unknown,
  options: SendOptions = {},
): Promise<Json> {
  const sent = await startPageCommand(call, page, cmd, args, options);
  if (call.signal.aborted) throw abortError(call.signal, cmd);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortError(call.signal, cmd));
    call.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([sent.answer, aborted]);
  } finally {
    if (onAbort) call.signal.removeEventListener('abort', onAbort);
    // the page still answers later; that late answer is simply dropped
    sent.answer.catch(() => undefined);
  }
}

/**
 * The same up to the send, for a command whose answer outlives the call (a picker the human answers later, a
 * notification the agent does not wait for): resolves once the command is on its way, with its answer to come.
 */
export async function startPageCommand(
  call: ToolCall,
  page: Page,
  cmd: PageCommandName,
  args: unknown,
  options: SendOptions = {},
): Promise<{ answer: Promise<Json> }> {
  const checked = checkPageArgs(cmd, args);
  await confirmPageCommand(call.bridge.asks, askerOf(call), page, cmd, asObject(checked));
  // no frameId: the bridge sends a frame's ref (`f1:e3`) to that frame, anything else to the top document
  const answer = call.bridge.requests.send(page, cmd, checked, {
    ...(options.frameId ? { frameId: options.frameId } : {}),
    timeoutMs: options.timeoutMs ?? commandTimeout(call.bridge.config.commandTimeoutMs, cmd, checked),
  });
  return { answer };
}

/** A command with its own timeout (Page.waitFor) may wait that long: the bridge waits that plus the round trip. */
function commandTimeout(defaultMs: number, cmd: PageCommandName, args: Json): number {
  if (!pageCommand(cmd).ownTimeout) return defaultMs;
  const own = asObject(args).timeoutMs;
  return typeof own === 'number' ? Math.max(defaultMs, own + PAGE_MARGIN_MS) : defaultMs;
}

function abortError(signal: AbortSignal, cmd: string): Error {
  const reason = signal.reason instanceof Error ? signal.reason.message : 'the call was cancelled';
  return new Error(`${cmd} abandoned: ${reason}`);
}

/** Page answers are JSON of any shape; tools return objects. */
export function asObject(value: Json): Record<string, Json> {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
}
