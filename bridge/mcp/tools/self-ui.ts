import { ToolInputs } from '../../protocol/index.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool } from '../tool.js';

export const selfUi = defineTool({
  name: 'self_ui',
  title: 'Open dialogs and forms',
  description:
    'The dialogs (topmost last) and visible forms of the page: title, fields (label, name, selector, ref, type, current value, options) and buttons. Use it before form_fill to see what can be filled.',
  inputSchema: ToolInputs.self_ui,
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'UI.scan', {}));
    return { structured: { pageId: page.pageId, ...result } };
  },
});
