import { z } from 'zod';
import { IsoTime, strictArgs } from '../../protocol/index.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';
import { networkLine } from '../text.js';
import { DEFAULT_LIMIT, sinceTime } from './page-logs.js';

export const pageNetwork = defineTool({
  name: 'page_network',
  title: 'Page network',
  description:
    'Finished fetch/XHR requests (method, url, status, duration, sizes, error), oldest first; kept after the page reloads. Filter by since, failedOnly (status >= 400 or network error), limit (newest N, default 100).',
  inputSchema: toolInput(
    'page_network',
    strictArgs({
      pageId,
      since: IsoTime.optional(),
      limit: z.number().int().positive().max(1000).optional(),
      failedOnly: z.boolean().optional(),
    }),
  ),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handle({ pageId, since, limit, failedOnly }, call) {
    const page = resolvePage(call, pageId, { remembered: true });
    const after = sinceTime(since);
    const all = call.bridge.buffers.peek(page.pageId)?.network.toArray() ?? [];
    const matching = all.filter(
      (e) => (!failedOnly || !e.ok || e.error !== undefined) && (after === undefined || Date.parse(e.at) > after),
    );
    const entries = matching.slice(-(limit ?? DEFAULT_LIMIT));
    return {
      structured: { pageId: page.pageId, entries, matched: matching.length, returned: entries.length },
      summary: `${entries.length} of ${matching.length} matching requests of ${page.pageId}${entries.length ? ':' : ''}`,
      text: entries.map(networkLine).join('\n'),
    };
  },
});
