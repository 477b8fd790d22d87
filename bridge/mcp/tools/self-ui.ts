import { PageCommands } from '../../protocol/index.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const selfUi = defineTool({
  name: 'self_ui',
  title: 'Open dialogs and forms',
  description:
    'The dialogs (topmost last) and visible forms of the page: title, fields (label, name, selector, ref, type, current value, options) and buttons. Use it before form_fill to see what can be filled.',
  inputSchema: toolInput('self_ui', PageCommands['UI.scan'].extend({ pageId })),
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handle({ pageId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'UI.scan', args));
    return { structured: { pageId: page.pageId, ...result } };
  },
});
