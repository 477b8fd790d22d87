import { z } from 'zod';
import { IsoTime, strictArgs } from '../../protocol/index.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';
import { networkLine } from '../text.js';
import { DEFAULT_LIMIT, sinceTime } from './page-logs.js';
import { ANSWER_BYTES, newestThatFit } from './budget.js';

export const pageNetwork = defineTool({
  name: 'page_network',
  title: 'Page network',
  description: `Finished fetch/XHR requests (method, url, status, duration, sizes, error), oldest first; kept after the page reloads. Filter by since/before, failedOnly (status >= 400 or network error), limit (newest N, default 100); ${ANSWER_BYTES / 1024} KiB an answer.`,
  inputSchema: toolInput(
    'page_network',
    strictArgs({
      pageId,
      since: IsoTime.optional(),
      before: IsoTime.optional().describe('only requests older than this (the next page: the before an answer gives)'),
      limit: z.number().int().positive().max(1000).optional(),
      failedOnly: z.boolean().optional(),
    }),
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handle({ pageId, since, before, limit, failedOnly }, call) {
    const page = resolvePage(call, pageId, { remembered: true });
    const after = sinceTime(since);
    const until = sinceTime(before, 'before');
    const all = call.bridge.buffers.peek(page.pageId)?.network.toArray() ?? [];
    const matching = all.filter(
      (e) =>
        (!failedOnly || !e.ok || e.error !== undefined) &&
        (after === undefined || Date.parse(e.at) > after) &&
        (until === undefined || Date.parse(e.at) < until),
    );
    const { entries, older } = newestThatFit(matching.slice(-(limit ?? DEFAULT_LIMIT)), networkLine);
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
        `${entries.length} of ${matching.length} matching requests of ${page.pageId}` +
        (older ? ` (the newest that fit one answer; ${more} older: call page_network with before: "${older}")` : '') +
        (entries.length ? ':' : ''),
      text: entries.map(networkLine).join('\n'),
    };
  },
});
