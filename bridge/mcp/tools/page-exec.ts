import { z } from 'zod';
import {
  DANGER_TEXT,
  FrameId,
  JsonValue,
  PUBLIC_COMMANDS,
  isPageCommand,
  pageCommand,
  type Json,
  type PageCommandName,
  strictArgs,
} from '../../protocol/index.js';
import { confirmPageCommand } from '../../asks/page-gate.js';
import { askerOf } from '../asker.js';
import { changeSinceSnapshot, forgetOutline } from '../outline-change.js';
import { waitAfterNavigation } from '../after-navigation.js';
import { PAGE_MARGIN_MS, asObject, checkPageArgs, sendPageCommand } from '../page-command.js';
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
    await confirmPageCommand(call.bridge.asks, askerOf(call), page, cmd, asObject(commandArgs));
    const result = await waitAfterNavigation(
      call,
      page,
      commandArgs,
      await sendPageCommand(call, page, cmd, commandArgs, {
        ...(frameId ? { frameId } : {}),
        timeoutMs: commandTimeout(call.bridge.config.commandTimeoutMs, cmd, commandArgs),
      }),
    );
    const image = imageOf(cmd, asObject(result));
    if (image) {
      // the picture goes to the model as an image, not as base64 inside the JSON text
      const { data: _data, ...rest } = asObject(result);
      return {
        structured: { pageId: page.pageId, cmd, result: { ...rest, image: 'attached as image content' } },
        images: [image],
      };
    }
    return withChange(call, page, frameId, cmd, asObject(result));
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

/**
 * The result as plain lines; after an action that may change the page (Input.*, a same-document navigation), the
 * change of the outline since the agent's last snapshot follows it.
 */
async function withChange(
  call: Parameters<typeof changeSinceSnapshot>[0],
  page: Parameters<typeof changeSinceSnapshot>[1],
  frameId: string | undefined,
  cmd: PageCommandName,
  result: Record<string, Json>,
): Promise<ToolResult> {
  const { ok: _ok, ...shown } = result;
  const lines = Object.keys(shown).length ? plainLines(shown) : ['done'];
  const structured: Record<string, unknown> = { pageId: page.pageId, cmd, result };
  const leaving = typeof result.navigating === 'string' || result.reloaded === true;
  const { navigates, changesOutline } = pageCommand(cmd);
  const sameDocument = navigates === true && result.reloaded === false;
  if (leaving) forgetOutline(call, page, frameId);
  else if (changesOutline || sameDocument) {
    const diff = await changeSinceSnapshot(call, page, frameId);
    if (diff) {
      structured.outlineChange = diff.change;
      lines.push(diff.text);
    }
  }
  return { structured, text: lines.join('\n') };
}

function imageOf(cmd: PageCommandName, result: Record<string, Json>): { data: string; mimeType: string } | undefined {
  if (!pageCommand(cmd).image) return undefined;
  const { data, mimeType } = result;
  return typeof data === 'string' && typeof mimeType === 'string' && mimeType.startsWith('image/')
    ? { data, mimeType }
    : undefined;
}

/** A command with its own timeout (Page.waitFor) may wait that long: the bridge waits that plus the round trip. */
function commandTimeout(defaultMs: number, cmd: PageCommandName, args: Json): number {
  if (!pageCommand(cmd).ownTimeout) return defaultMs;
  const own = args && typeof args === 'object' && !Array.isArray(args) ? args.timeoutMs : undefined;
  return typeof own === 'number' ? Math.max(defaultMs, own + PAGE_MARGIN_MS) : defaultMs;
}
