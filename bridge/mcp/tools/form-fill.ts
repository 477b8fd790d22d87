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
    'Fills a form in one call as a person would: the topmost open dialog, the one named by dialog, or the page. Keys: label, placeholder, name or css=<selector>. Values: string, number, boolean (checkbox, switch) or string[] (the whole selection of a multi-select); dates as 2027-03-15. Selects, comboboxes, chips, date pickers, sliders and radios are set whatever library drew them, then read back. Fields not filled or not kept are listed with what the page offers, and then button (label or target) is not pressed. Example: {"fields":{"Email":"a@b.c","Country":"Japan","Skills":["React","Svelte"]},"button":"Sign in"}',
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
