import { PageCommands, UiFillResult } from '../../protocol/index.js';
import { changeSinceSnapshot } from '../outline-change.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const formFill = defineTool({
  name: 'form_fill',
  title: 'Fill a form',
  description:
    'Fills fields of the topmost open dialog (or the dialog named by "dialog", or the page) the way a person would: native value setters plus input/change events, so React, Vue and other frameworks see the change. Fields are keyed by label, placeholder, name or "css=<selector>"; values are strings, numbers, booleans (checkboxes) or string arrays (multi-selects). "button" clicks a button by label or target afterwards. Example: {"fields":{"Email":"a@b.c","Remember me":true},"button":"Sign in"}.',
  // the page command's own arguments, so their limits are the tool's limits
  inputSchema: toolInput('form_fill', PageCommands['UI.fill'].extend({ pageId })),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handle({ pageId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'UI.fill', args));
    const structured: Record<string, unknown> = { pageId: page.pageId, ...result };
    const fill = UiFillResult.safeParse(result);
    if (!fill.success) return { structured };
    const { scope, filled, clicked, dialogOpen } = fill.data;
    const summary = [
      `Filled ${filled.map((f) => `${JSON.stringify(f.field)} = ${JSON.stringify(f.value)}`).join(', ') || 'nothing'} in ${scope}`,
      clicked ? `clicked ${clicked}` : '',
      dialogOpen === false ? 'the dialog closed' : dialogOpen ? 'the dialog is still open' : '',
    ]
      .filter(Boolean)
      .join('; ');
    const diff = await changeSinceSnapshot(call, page, undefined);
    if (diff) structured.outlineChange = diff.change;
    return { structured, summary: `${summary}.`, text: diff?.text ?? '' };
  },
});
