import { FrameId, PageCommands } from '../../protocol/index.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const pageSnapshot = defineTool({
  name: 'page_snapshot',
  title: 'Page snapshot',
  description:
    'A compact outline of the page: one line per meaningful element, each actionable one with a ref ("e12") that page_exec, form_fill and the other page tools take as target; plus url, title, viewport and detected frameworks. Refs stay valid until the next snapshot. Cross-origin iframes are listed with their frameId: snapshot them with frameId.',
  // Snapshot.take's arguments (its depth cap stays internal), plus where to take it
  inputSchema: toolInput(
    'page_snapshot',
    PageCommands['Snapshot.take'].omit({ maxDepth: true }).extend({ pageId, frameId: FrameId.optional() }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId, frameId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'Snapshot.take', args, frameId ? { frameId } : {}));
    const refs = typeof result.refs === 'number' ? `, ${result.refs} refs` : '';
    return {
      structured: { pageId: page.pageId, ...(frameId ? { frameId } : {}), ...result },
      summary: `Snapshot of ${page.pageId}${frameId ? ` frame ${frameId}` : ''} (${page.url})${refs}`,
    };
  },
});
