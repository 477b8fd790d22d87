import { z } from 'zod';
import { IsoTime, type LogEntry, strictArgs } from '../../protocol/index.js';
import { isConnected } from '../../pages/registry.js';
import { runPageCommand } from '../page-pipeline.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput, ToolError } from '../tool.js';
import { pageId } from './args.js';
import { logLine } from '../text.js';
import { ANSWER_BYTES, newestThatFit } from './budget.js';

const RANK: Record<LogEntry['level'], number> = { debug: 0, log: 1, info: 2, warn: 3, error: 4 };
export const DEFAULT_LIMIT = 100;
/** How long page_logs waits for the page to send what it holds; a page that does not answer gives what is here. */
const FLUSH_MS = 3000;

export const pageLogs = defineTool({
  name: 'page_logs',
  title: 'Page console',
  description: `The page console with uncaught errors and rejections (stacks mapped to your sources), oldest first; kept after the page reloads or closes. Filter by level (and above), since/before (ISO, exclusive), limit (newest N, default 100); ${ANSWER_BYTES / 1024} KiB an answer.`,
  inputSchema: toolInput(
    'page_logs',
    strictArgs({
      pageId,
      level: z.enum(['debug', 'log', 'info', 'warn', 'error']).optional(),
      since: IsoTime.optional(),
      before: IsoTime.optional(),
      limit: z.number().int().positive().max(1000).optional(),
    }),
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handle({ pageId, level, since, before, limit }, call) {
    const page = resolvePage(call, pageId, { remembered: true });
    const after = sinceTime(since);
    const until = sinceTime(before, 'before');
    // what the page has not sent yet (a batch waiting, a stack being mapped) comes in before the answer
    if (isConnected(page) && call.bridge.pages.isOperable(page))
      await runPageCommand(call, page, 'Watch.flush', {}, { timeoutMs: FLUSH_MS }).catch(() => undefined);
    // console calls and uncaught errors arrive in separate batches (errors after their stacks are mapped):
    // one order, by the time each happened (a stable sort keeps arrival order for the same millisecond)
    const all = [...(call.bridge.buffers.peek(page.pageId)?.logs.toArray() ?? [])].sort(
      (a, b) => Date.parse(a.at) - Date.parse(b.at),
    );
    const matching = all.filter(
      (e) =>
        (!level || RANK[e.level] >= RANK[level]) &&
        (after === undefined || Date.parse(e.at) > after) &&
        (until === undefined || Date.parse(e.at) < until),
    );
    const fit = newestThatFit(matching.slice(-(limit ?? DEFAULT_LIMIT)), (e) => logLine(e).join('\n'));
    const { entries, older } = fit;
    const more = matching.length - entries.length;
    return {
      structured: {
        pageId: page.pageId,
        entries,
        matched: matching.length,
        returned: entries.length,
        ...(older ? { before: older } : {}),
      },
      summary:
        `${entries.length} of ${matching.length} matching console entries of ${page.pageId}` +
        (older ? ` (the newest that fit one answer; ${more} older: call page_logs with before: "${older}")` : '') +
        (entries.length ? ':' : ''),
      text: entries.flatMap(logLine).join('\n'),
    };
  },
});

/** An ISO time as ms, or a ToolError naming the argument. */
export function sinceTime(since: string | undefined, field = 'since'): number | undefined {
  if (since === undefined) return undefined;
  const at = Date.parse(since);
  if (Number.isNaN(at)) {
    throw new ToolError(`${field} "${since}" is not an ISO time; use e.g. "${new Date().toISOString()}"`, field);
  }
  return at;
}
