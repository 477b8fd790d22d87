import { isConnected, type Page } from '../pages/registry.js';
import { ToolError, type ToolCall } from './tool.js';

export interface ResolveOptions {
  /** accept a page that disconnected but is still remembered (its buffers answer after it has gone) */
  remembered?: boolean;
}

/**
 * The page a tool acts on: the explicit pageId, else the page the agent bound with aiti_hello, else the only
 * operable page. Anything else is an error that lists the connected pages and says what to do. An unbound call
 * never moves to another page silently: once the agent has used a page, another page that appears while that
 * one is gone (a lookalike with the same URL and title) is not taken in its place.
 */
export function resolvePage(call: ToolCall, pageId?: string, options: ResolveOptions = {}): Page {
  const page = findPage(call, pageId, options);
  call.bridge.agents.usedPage(call.agent, page.pageId);
  return page;
}

function findPage(call: ToolCall, pageId: string | undefined, options: ResolveOptions): Page {
  const pages = call.bridge.pages;
  const wanted = pageId ?? call.agent.pageId;
  if (wanted) {
    const page = pages.get(wanted);
    const how = pageId ? 'pageId' : 'the page bound by aiti_hello,';
    if (!page) throw new ToolError(`${how} "${wanted}" is not connected; ${connectedList(call)}`, 'pageId');
    if (!pages.isOperable(page)) {
      throw new ToolError(
        `page ${page.pageId} (${page.origin}) is held until the human allows its origin in the AITI window; ask them, or use another page (${connectedList(call)})`,
        'pageId',
      );
    }
    return page;
  }
  const graceMs = call.bridge.requests.reconnectGraceMs;
  // A page that is reloading right now is still the page: the command waits for it to come back.
  const mayReturn = (p: Page) =>
    pages.isOperable(p) && (isConnected(p) || options.remembered || performance.now() - p.seenAt < graceMs);
  const operable = pages.operable();
  const lastId = call.agent.lastPageId;
  if (lastId) {
    const last = pages.get(lastId);
    // its own page, connected, reloading (the command waits for it), or remembered for page_logs
    if (last && mayReturn(last) && (!isConnected(last) || operable.every((p) => p === last))) return last;
    if (!operable.some((p) => p.pageId === lastId) && operable.length > 0) {
      const when = last ? `not seen since ${new Date(last.lastSeen).toISOString()}` : 'forgotten';
      throw new ToolError(
        `the page you were using, ${lastId}${last ? ` (${last.url})` : ''}, is gone (${when}); this call is not moved to another page on its own: pass pageId if you mean one of them (${connectedList(call)})`,
        'pageId',
      );
    }
  }
  const only = operable[0];
  if (operable.length === 1 && only) return only;
  if (operable.length === 0) {
    const remembered = pages.all().filter(mayReturn);
    const last = remembered[0];
    if (remembered.length === 1 && last) return last;
    throw new ToolError(
      `no page is connected; load the page agent in your page (<script src="${agentScriptHint(call)}"></script>), reload it, then call bridge_status`,
      'pageId',
    );
  }
  throw new ToolError(
    `${operable.length} pages are connected, so pass pageId (or bind one with aiti_hello); ${connectedList(call)}`,
    'pageId',
  );
}

/** `connected pages: p1 (http://localhost:3000/, "Title"), p3 (…) — call bridge_status` */
export function connectedList(call: ToolCall): string {
  const operable = call.bridge.pages.operable();
  const rows = operable.map((p) => `${p.pageId} (${p.url}${p.title ? `, "${p.title}"` : ''})`);
  return `connected pages: ${rows.length ? rows.join(', ') : 'none'} — call bridge_status for details`;
}

function agentScriptHint(call: ToolCall): string {
  const own = call.bridge.ownOrigins()[0];
  return `${own ?? 'http://127.0.0.1:8777'}/aiti/page.js`;
}
