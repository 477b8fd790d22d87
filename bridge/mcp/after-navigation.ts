import type { Json } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { asObject, PAGE_MARGIN_MS, runPageCommand } from './page-command.js';
import type { ToolCall } from './tool.js';

const WAIT_MS = 10_000;

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
  const waited = await runPageCommand(
    call,
    page,
    'Page.waitFor',
    { ...query, timeoutMs: WAIT_MS },
    { timeoutMs: WAIT_MS + PAGE_MARGIN_MS },
  ).catch((error: Error) => {
    throw new Error(
      `${error.message.replace(/^Page\.waitFor: /, '')} after the navigation (the new document has loaded: take a page_snapshot to see what it shows)`,
    );
  });
  return { ...answer, waited };
}
