import { isDeepStrictEqual } from 'node:util';
import { FrameId, PageCommands, SnapshotResult, strictArgs } from '../../protocol/index.js';
import { rememberOutline } from '../outline-change.js';
import { runPageCommand } from '../page-pipeline.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const pageSnapshot = defineTool({
  name: 'page_snapshot',
  title: 'Page snapshot',
  description:
    'An outline of the page, one line per meaningful element; actionable ones have a ref (e12, or f1:e3 in a frame) that page tools take as target. With a modal open, only the modal. A long list shows its first rows and a count: pass its ref as target to see all. Actions report how the outline changed, so snapshot again rarely; a ref of an element that left is refused.',
  // Snapshot.take's arguments (its settle wait stays internal: actions use it), plus where to take it
  inputSchema: toolInput(
    'page_snapshot',
    strictArgs({
      pageId,
      frameId: FrameId.optional(),
      ...PageCommands['Snapshot.take'].omit({ settleMs: true }).shape,
    }),
  ),
  narrower: 'pass a target ref (one region or list) or a smaller depth',
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId, frameId, target, depth }, call) {
    const page = resolvePage(call, pageId);
    const options = { ...(target !== undefined ? { target } : {}), ...(depth !== undefined ? { depth } : {}) };
    const { result } = await runPageCommand(call, page, 'Snapshot.take', options, frameId ? { frameId } : {});
    const structured = { pageId: page.pageId, ...(frameId ? { frameId } : {}), ...result };
    const snapshot = SnapshotResult.safeParse(result);
    if (!snapshot.success) return { structured };
    const snap = snapshot.data;
    const before = rememberOutline(call, page, frameId, snap, options);
    // the viewport and the frameworks cost characters on every call: said only when they changed
    const viewport = before && !isDeepStrictEqual(before.viewport, snap.viewport) ? snap.viewport : undefined;
    const frameworks = before && !isDeepStrictEqual(before.frameworks, snap.frameworks) ? snap.frameworks : undefined;
    const head = `${page.pageId}${frameId ? ` frame ${frameId}` : ''} ${snap.url}${snap.title ? ` ${JSON.stringify(snap.title)}` : ''}`;
    const text = [
      head,
      ...(viewport
        ? [
            `viewport ${viewport.width}×${viewport.height}, scrolled to ${viewport.scrollX},${viewport.scrollY} of ${viewport.documentWidth}×${viewport.documentHeight}`,
          ]
        : []),
      ...(frameworks ? [`frameworks: ${frameworks.join(', ') || 'none'}`] : []),
      snap.outline,
    ].join('\n');
    return { structured, text };
  },
});
