import type { Json } from '../protocol/index.js';
import { BridgeError } from '../errors.js';
import type { Page } from '../pages/registry.js';
import { PageCommandError } from '../pages/requests.js';
import { asObject, PAGE_MARGIN_MS, sendPageCommand } from './page-command.js';
import { ToolError, type ToolCall } from './tool.js';

const WAIT_MS = 10_000;
/** page_exec's argument that asked for the wait */
const WAIT_FIELD = 'args.waitFor';

/**
 * `Page.reload` / `Page.navigate` with `waitFor`: the navigation answers when the new document's agent connects,
 * which is before the app has rendered; this then waits in the new document until the text or selector shows,
 * so the agent's next command finds what it expects. A navigation to another origin became another page: there
 * is nothing to wait for here, and the result says so.
 */
export async function waitAfterNavigation(call: ToolCall, page: Page, args: Json, result: Json): Promise<Json> {
  const target = args && typeof args === 'object' && !Array.isArray(args) ? args.waitFor : undefined;
  if (typeof target !== 'string') return result;
  const answer = asObject(result);
  const url = typeof answer.url === 'string' ? answer.url : undefined;
  if (url && new URL(url).origin !== page.origin)
    return { ...answer, waited: `not waited for ${JSON.stringify(target)}: the page left for another origin` };
  const query: Record<string, Json> = target.startsWith('css=')
    ? { selector: target }
    : { text: target.replace(/^text=/, '') };
  const waited = await sendPageCommand(
    call,
    page,
    'Page.waitFor',
    { ...query, timeoutMs: WAIT_MS },
    { timeoutMs: WAIT_MS + PAGE_MARGIN_MS },
  ).catch((error: unknown) => {
    throw waitFailed(error);
  });
  return { ...answer, waited };
}

/**
 * The wait's failure, told as one after the navigation. A failure of the page or of the arguments stays the
 * bridge's own error (the dispatcher answers it as the agent's to fix, not as a bug) and names `args.waitFor`,
 * the argument that asked for the wait; anything else (the call was cancelled) goes on as it was.
 */
function waitFailed(error: unknown): unknown {
  if (!(error instanceof BridgeError)) return error;
  const message = `${error.message.replace(/^Page\.waitFor:? /, '')} after the navigation (the new document has loaded: take a page_snapshot to see what it shows)`;
  return error instanceof PageCommandError
    ? new PageCommandError(message, WAIT_FIELD)
    : new ToolError(message, WAIT_FIELD);
}
