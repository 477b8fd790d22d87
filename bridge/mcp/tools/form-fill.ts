import { PageCommands, type Raised, UiFillResult } from '../../protocol/index.js';
import { changeSinceSnapshot } from '../outline-change.js';
import { asObject, runPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { pageId } from './args.js';

export const formFill = defineTool({
  name: 'form_fill',
  title: 'Fill a form',
  description:
    'Fills a whole form in one call, the way a person would: the topmost open dialog (or the dialog named by "dialog", or the page). Fields are keyed by label, placeholder, name or "css=<selector>"; values are strings, numbers, booleans (checkboxes, switches) or string arrays (the whole selection of a multi-select). Widgets are recognised by their pattern, whatever library drew them: text boxes (native setter plus input/change, so React and Vue see it), comboboxes and selects (opened, the option with that label pressed), multi-selects (chips, tags or pills beside the box: the array replaces what it held), date fields ("2027-03-15" or any way a person writes a day: typed, or picked in the calendar a button or the box opens, paging to the month), sliders and range inputs (moved with the keys until they show the number), radio groups, switches and checkboxes. Every key is matched first and every matched field is set; each is then read back as the person sees it. A key no field matches, a value the widget did not take (no such option, outside a slider\'s range) and a value the app did not keep are listed under notFilled with what the page shows or offers instead, and then "button" is not pressed; "button" (a label or target) is pressed only when every field was filled and kept. frameId fills in that frame; same-origin iframes are searched without it. Example: {"fields":{"Email":"a@b.c","Country":"Japan","Skills":["React","Svelte"],"Start":"2027-03-15","Remember me":true},"button":"Sign in"}.',
  // the page command's own arguments, so their limits are the tool's limits
  inputSchema: toolInput('form_fill', PageCommands['UI.fill'].extend({ pageId })),
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handle({ pageId, frameId, ...args }, call) {
    const page = resolvePage(call, pageId);
    const result = asObject(await runPageCommand(call, page, 'UI.fill', args, frameId ? { frameId } : {}));
    const structured: Record<string, unknown> = { pageId: page.pageId, ...(frameId ? { frameId } : {}), ...result };
    const fill = UiFillResult.safeParse(result);
    if (!fill.success) return { structured };
    const { scope, filled, clicked, dialogOpen, notFilled, note, raised } = fill.data;
    const summary = [
      // first: a field the app did not keep must not read as success
      notFilled?.length
        ? `NOT filled: ${notFilled.map((f) => `${JSON.stringify(f.field)} (wanted ${JSON.stringify(f.wanted)}, the app shows ${JSON.stringify(f.shows)}: ${f.reason})`).join(', ')}`
        : '',
      // what the page threw is news the agent must not miss
      raised?.length ? `the page raised ${raised.map(raisedText).join('; ')}` : '',
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

/** `uncaught TypeError: … at /src/save.ts:12:5` */
export function raisedText(r: Raised): string {
  const kind = r.kind === 'console.error' ? 'console.error' : r.kind === 'error' ? 'uncaught' : 'unhandled rejection';
  return `${kind} ${r.message}${r.at ? ` at ${r.at}` : ''}`;
}
