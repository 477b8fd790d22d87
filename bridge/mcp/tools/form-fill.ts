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
    'Fills fields of the topmost open dialog (or the dialog named by "dialog", or the page) the way a person would: native value setters plus input/change events, so React, Vue and other frameworks see the change. Fields are keyed by label, placeholder, name or "css=<selector>"; values are strings, numbers, booleans (checkboxes) or string arrays (multi-selects). Comboboxes (MUI/Radix/Ant/Headless UI selects, Autocompletes) are opened and the option with that label pressed; a multi-value one (MUI Autocomplete multiple, Ant Select mode=multiple) takes an array of option labels as its whole selection: what it held before and is not in the array is deselected (a single string means that one value). Every field is read back after the app re-rendered; one the app did not keep is listed under notFilled with what it shows, and then "button" is not pressed. "button" clicks a button by label or target afterwards. frameId fills in that frame; same-origin iframes are searched without it. Example: {"fields":{"Email":"a@b.c","Remember me":true},"button":"Sign in"}.',
  // the page command's own arguments, so their limits are the tool's limits
  inputSchema: toolInput('form_fill', PageCommands['UI.fill'].extend({ pageId })),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handle({ pageId, frameId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'UI.fill', args, frameId ? { frameId } : {}));
    const structured: Record<string, unknown> = { pageId: page.pageId, ...(frameId ? { frameId } : {}), ...result };
    const fill = UiFillResult.safeParse(result);
    if (!fill.success) return { structured };
    const { scope, filled, clicked, dialogOpen, notFilled, note } = fill.data;
    const summary = [
      // first: a field the app did not keep must not read as success
      notFilled?.length
        ? `NOT filled: ${notFilled.map((f) => `${JSON.stringify(f.field)} (wanted ${JSON.stringify(f.wanted)}, the app shows ${JSON.stringify(f.shows)}: ${f.reason})`).join(', ')}`
        : '',
      `Filled ${filled.map((f) => `${JSON.stringify(f.field)} = ${JSON.stringify(f.value)}`).join(', ') || 'nothing'} in ${scope}`,
      note ?? '',
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
