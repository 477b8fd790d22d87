import type { OpenFilePayload } from '../../protocol/page.js';
import { describeElement } from '../json.js';
import { toast } from './overlay.js';
import { elementAt, isPicking } from './picker.js';
import { resolveSource } from './source.js';

/** Alt+click on any element opens its source in the editor (the bridge runs AITI_OPEN_CMD). */
export function watchAltClick(root: string | undefined, send: (payload: OpenFilePayload) => Promise<void>): void {
  window.addEventListener(
    'click',
    (event) => {
      if (!event.altKey || isPicking()) return;
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
        send(payload).then(
          () => toast(`Opening ${where}`, { title: 'AITI — open in editor', ms: 3000 }),
          (error: Error) => toast(`Could not open ${where}: ${error.message}`, { title: 'AITI — open in editor' }),
        );
      });
    },
    true,
  );
}
