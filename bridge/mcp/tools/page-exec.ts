import { z } from 'zod';
import {
  DANGER_TEXT,
  FrameId,
  JsonValue,
  PUBLIC_COMMANDS,
  isPageCommand,
  pageCommand,
  type PageCommandName,
  strictArgs,
} from '../../protocol/index.js';
import { checkPageArgs } from '../page-command.js';
import { runPageCommand, type PageAnswer } from '../page-pipeline.js';
import { resolvePage } from '../resolve-page.js';
import { plainLines } from '../text.js';
import { commandHelp } from '../tool-docs.js';
import { defineTool, toolInput, ToolError, type ToolResult } from '../tool.js';
import { pageId } from './args.js';

export const pageExec = defineTool({
  name: 'page_exec',
  title: 'Run a page command',
  description: `Runs one page command and returns its result (after an action, how the outline changed). Commands: ${commandList()}; cmd "help" gives each one's args. ${confirmedCommands()} Example: {"cmd":"Input.type","args":{"target":"e12","text":"a@b.c","submit":true}}`,
  inputSchema: toolInput(
    'page_exec',
    strictArgs({
      pageId,
      frameId: FrameId.optional(),
      cmd: z.string().min(1).describe('a page command such as "Input.click", or "help"'),
      args: z.record(z.string(), JsonValue).optional(),
    }),
  ),
  narrower:
    'pass a target (a ref or a CSS selector) for one part of the page; for Page.screenshot, a target or a smaller maxWidth',
  annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  async handle({ pageId, frameId, cmd, args }, call) {
    if (cmd === 'help') return { structured: { commands: [...PUBLIC_COMMANDS] }, text: commandHelp() };
    if (!isPageCommand(cmd) || !PUBLIC_COMMANDS.includes(cmd)) {
      const near = PUBLIC_COMMANDS.filter((name) =>
        name.toLowerCase().includes(cmd.split('.').pop()?.toLowerCase() ?? ''),
      );
      throw new ToolError(
        `unknown page command "${cmd}"${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}; commands: ${PUBLIC_COMMANDS.join(', ')}`,
        'cmd',
      );
    }
    const commandArgs = checkPageArgs(cmd, args, 'args.');
    const page = resolvePage(call, pageId);
    const answer = await runPageCommand(call, page, cmd, commandArgs, frameId ? { frameId } : {});
    if (answer.image) {
      // the picture goes to the model as an image, not as base64 inside the JSON text
      return {
        structured: { pageId: page.pageId, cmd, result: { ...answer.result, image: 'attached as image content' } },
        images: [answer.image],
      };
    }
    return resultText(page.pageId, cmd, answer);
  },
});

/** The commands, grouped by domain: `DOM.query|getHTML|getText`. */
function commandList(): string {
  const domains = new Map<string, string[]>();
  for (const name of PUBLIC_COMMANDS) {
    const [domain = '', method = ''] = name.split('.');
    domains.set(domain, [...(domains.get(domain) ?? []), method]);
  }
  return [...domains].map(([domain, methods]) => `${domain}.${methods.join('|')}`).join(', ');
}

/** The sentence of the description that names the commands which wait for the human's yes, read from their descriptors. */
function confirmedCommands(): string {
  const asked = PUBLIC_COMMANDS.flatMap((name) => {
    const { danger } = pageCommand(name);
    return danger === 'none' ? [] : [`${name} (${DANGER_TEXT[danger]})`];
  });
  return `These wait for the human's yes: ${asked.join(', ')}.`;
}

/** The result as plain lines; after an action, how the outline changed since the agent's last snapshot follows. */
function resultText(pageId: string, cmd: PageCommandName, { result, outlineChange }: PageAnswer): ToolResult {
  const { ok: _ok, ...shown } = result;
  const lines = Object.keys(shown).length ? plainLines(shown) : ['done'];
  const structured: Record<string, unknown> = { pageId, cmd, result };
  if (outlineChange) {
    structured.outlineChange = outlineChange.change;
    lines.push(outlineChange.text);
  }
  return { structured, text: lines.join('\n') };
}
