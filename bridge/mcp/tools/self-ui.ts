import { PageCommands, UiScanResult, type UiSurface } from '../../protocol/index.js';
import { runPageCommand } from '../page-pipeline.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const selfUi = defineTool({
  name: 'self_ui',
  title: 'Open dialogs and forms',
  description:
    "The page's dialogs (topmost last) and visible forms: fields (label, type, value, options, ref) and buttons. Use it before form_fill.",
  inputSchema: toolInput('self_ui', PageCommands['UI.scan'].extend({ pageId })),
  narrower: 'a frameId for one frame at a time; page_snapshot with a target for one region',
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId, frameId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const { result } = await runPageCommand(call, page, 'UI.scan', args, frameId ? { frameId } : {});
    const scan = UiScanResult.safeParse(result);
    const surfaces = scan.success ? [...scan.data.dialogs, ...scan.data.forms] : [];
    return {
      structured: { pageId: page.pageId, ...(frameId ? { frameId } : {}), ...result },
      ...(scan.success
        ? {
            summary: `${scan.data.dialogs.length} open dialog(s), ${scan.data.forms.length} form(s) on ${page.pageId}${surfaces.length ? ':' : ''}`,
            text: surfaces.flatMap(surfaceLines).join('\n'),
          }
        : {}),
    };
  },
});

/** `dialog "Edit profile" [modal] e3`, then a line per field (`e4 email "Email" ="a@b.c" [required]`) and the buttons. */
function surfaceLines(surface: UiSurface): string[] {
  const head = `${surface.ref} ${surface.kind} ${JSON.stringify(surface.title)}${surface.modal ? ' [modal]' : ''}${surface.frame ? ` in frame ${surface.frame}` : ''}${surface.selector ? ` ${surface.selector}` : ''}`;
  const fields = surface.fields.map((f) => {
    const value = Array.isArray(f.value) ? f.value.join(', ') : f.value;
    const states = [f.required && 'required', f.disabled && 'disabled'].filter(Boolean).join(' ');
    return `  ${f.ref} ${f.type} ${JSON.stringify(f.label)}${f.name ? ` name=${f.name}` : ''} =${JSON.stringify(value)}${states ? ` [${states}]` : ''}${f.options?.length ? ` options: ${f.options.map((o) => JSON.stringify(o)).join(', ')}` : ''}`;
  });
  const buttons = surface.buttons.map((b) => `${b.ref} ${JSON.stringify(b.label)}${b.disabled ? ' [disabled]' : ''}`);
  return [head, ...fields, ...(buttons.length ? [`  buttons: ${buttons.join(', ')}`] : [])];
}
