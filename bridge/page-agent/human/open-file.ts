import type { OpenFilePayload } from '../../protocol/page.js';
import { describeElement } from '../dom/json.js';
import { toast } from './overlay.js';
import { elementAt, isPicking, sameOriginWindows } from './picker.js';
import { resolveSource } from './source.js';

/** Alt+click on any element opens its source in the editor (the bridge runs AITI_OPEN_CMD). */
export function watchAltClick(root: string | undefined, send: (payload: OpenFilePayload) => Promise<void>): void {
  const onClick = (event: MouseEvent) => {
    if (!event.altKey || isPicking()) return;
    // a same-origin iframe that runs its own agent answers its own Alt+clicks
    const view = (event.target as Node | null)?.ownerDocument?.defaultView;
    if (view && view !== window && view.__aitiPageAgent) return;
    const el = elementAt(event);
    if (!el) return;
    event.preventDefault();
    event.stopPropagation();
    void resolveSource(el, root).then((source) => {
      if (!source) {
        toast(
          `No source location is known for ${describeElement(el)} (add the @aiti-ai/aiti-bridge/vite plugin for exact lines)`,
          {
            title: 'AITI — open in editor',
          },
        );
        return;
      }
      const payload: OpenFilePayload = {
        file: source.file.slice(0, 4096),
        ...(source.line ? { line: source.line } : {}),
        ...(source.column ? { column: source.column } : {}),
      };
      const where = `${payload.file}${payload.line ? `:${payload.line}` : ''}`;
      const what = source.component ? `${source.component} at ${where}` : where;
      send(payload).then(
        () => toast(`Opening ${what}`, { title: 'AITI — open in editor', ms: 3000 }),
        (error: Error) => toast(`Could not open ${where}: ${error.message}`, { title: 'AITI — open in editor' }),
      );
    });
  };
  // same-origin iframes without an agent of their own: Alt+click inside them too (attached as they load)
  const attached = new WeakSet<Document>();
  const attach = () => {
    for (const win of sameOriginWindows()) {
      if (attached.has(win.document)) continue;
      attached.add(win.document);
      win.addEventListener('click', onClick, true);
    }
  };
  attach();
  window.addEventListener(
    'load',
    (event) => {
      if (event.target !== window) attach();
    },
    true,
  );
}
