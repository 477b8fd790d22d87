import { isDeepStrictEqual } from 'node:util';
import { FrameId, PageCommands, SnapshotResult, strictArgs } from '../../protocol/index.js';
import { rememberOutline } from '../outline-change.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const pageSnapshot = defineTool({
  name: 'page_snapshot',
  title: 'Page snapshot',
  description:
    'A compact outline of the page: one line per meaningful element, each actionable one with a ref ("e12") that page_exec, form_fill and the other page tools take as target. With a modal dialog open, only the dialog (and one line on what is behind it). Long lists of similar rows show their first rows and a count: pass that list\'s ref as "target" to see them all; "depth" limits the levels shown. Actions afterwards (page_exec Input.*, form_fill, same-page navigation) report how the outline changed, so a new snapshot is rarely needed. A ref names one element for the life of the document and is never given to another: a ref from an earlier document or whose element left the page is refused (take a new snapshot). Refs from a frame carry it ("f1:e3") and are sent there without frameId. Cross-origin iframes are listed with their frameId: snapshot them with frameId.',
  // Snapshot.take's arguments (its settle wait stays internal: actions use it), plus where to take it
  inputSchema: toolInput(
    'page_snapshot',
    strictArgs({
      pageId,
      frameId: FrameId.optional(),
      ...PageCommands['Snapshot.take'].omit({ settleMs: true }).shape,
    }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId, frameId, target, depth }, call) {
    const page = resolvePage(call, pageId);
    const options = { ...(target !== undefined ? { target } : {}), ...(depth !== undefined ? { depth } : {}) };
    const result = asObject(await runPageCommand(call, page, 'Snapshot.take', options, frameId ? { frameId } : {}));
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
