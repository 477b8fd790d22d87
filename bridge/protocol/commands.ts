import { z } from 'zod';
import { FrameId } from './common.js';
import { strictArgs } from './strict.js';

/**
 * Page commands for page_exec (README "Page commands"): one args schema per command. The page agent validates with the
 * same schemas before running a command, so both sides agree on every argument.
 */

/** A ref from the last snapshot (`e12`), `css=<selector>`, or `text=<visible text>`. */
export const Target = z
  .string()
  .min(1)
  .max(4096)
  .describe('a ref from page_snapshot (e.g. "e12"), "css=<selector>" or "text=<visible text>"');

/** Routing, not an argument the page reads: the bridge sends the command to that frame's agent. */
const frameId = FrameId.optional().describe(
  'the frame to act in ("f1" from page_snapshot); same-origin iframes are also reached without it',
);

/** After a navigation: answer only once this shows in the new document (the app has rendered). */
const WaitForTarget = z
  .string()
  .min(1)
  .max(4096)
  .optional()
  .describe('answer once this text (or "css=<selector>") shows in the new document, up to 10 s');

const timeoutMs = z.number().int().positive().max(300_000).optional();

export const PageCommands = {
  'Runtime.evaluate': strictArgs({
    expression: z.string().min(1).max(100_000),
    awaitPromise: z.boolean().optional(),
  }),
  'DOM.query': strictArgs({
    target: Target,
    all: z.boolean().optional().describe('every match instead of the first'),
    limit: z.number().int().positive().max(500).optional(),
  }),
  'DOM.getHTML': strictArgs({ target: Target.optional(), outer: z.boolean().optional() }),
  'DOM.getText': strictArgs({ target: Target.optional() }),
  'Input.click': strictArgs({ target: Target, button: z.enum(['left', 'middle', 'right']).optional() }),
  'Input.dblclick': strictArgs({ target: Target }),
  'Input.hover': strictArgs({ target: Target }),
  'Input.type': strictArgs({
    target: Target,
    text: z.string().max(100_000),
    submit: z.boolean().optional().describe('press Enter after typing'),
    clear: z.boolean().optional().describe('clear the field first (default true)'),
  }),
  'Input.press': strictArgs({ key: z.string().min(1).max(64), target: Target.optional() }),
  'Input.scroll': strictArgs({
    target: Target.optional(),
    x: z.number().optional(),
    y: z.number().optional(),
    to: z.enum(['top', 'bottom', 'element']).optional(),
  }),
  'Input.select': strictArgs({ target: Target, values: z.array(z.string()).min(1) }),
  'Input.check': strictArgs({ target: Target, checked: z.boolean().optional() }),
  'Page.navigate': strictArgs({ url: z.string().min(1).max(8192), waitFor: WaitForTarget }),
  'Page.reload': strictArgs({ waitFor: WaitForTarget }),
  'Page.back': strictArgs({}),
  'Page.forward': strictArgs({}),
  'Page.waitFor': strictArgs({
    selector: z.string().max(4096).optional(),
    text: z.string().max(4096).optional(),
    gone: z.boolean().optional(),
    timeoutMs,
  }).refine((a) => a.selector !== undefined || a.text !== undefined, {
    message: 'give selector or text',
    path: ['selector'],
  }),
  'Page.layout': strictArgs({ target: Target.optional() }),
  'Page.screenshot': strictArgs({
    target: Target.optional(),
    maxWidth: z.number().int().positive().max(4096).optional(),
  }),
  'Storage.get': strictArgs({
    area: z.enum(['local', 'session', 'cookie']),
    key: z.string().max(1024).optional(),
  }),
  'Storage.set': strictArgs({
    area: z.enum(['local', 'session', 'cookie']),
    key: z.string().min(1).max(1024),
    value: z.string().max(1_000_000).nullable().describe('null removes the key'),
  }),
  /**
   * Internal: the page halves of page_snapshot, self_ui, form_fill, user_pick_element and user_notify. Those tools
   * derive their input from these schemas (bridge/mcp/tools/), so a limit here is the tool's limit too.
   */
  'Snapshot.take': strictArgs({
    target: Target.optional().describe(
      'outline only this element and what is inside it, with nothing collapsed (e.g. the ref of a collapsed list)',
    ),
    depth: z.number().int().positive().max(200).optional().describe('levels to show; deeper content becomes "…"'),
    settleMs: z
      .number()
      .int()
      .nonnegative()
      .max(5000)
      .optional()
      .describe('first wait until the page has not changed for a moment, at most this long'),
  }),
  'UI.scan': strictArgs({ frameId }),
  'UI.fill': strictArgs({
    frameId,
    dialog: z
      .string()
      .max(1024)
      .optional()
      .describe('dialog title or selector; default the topmost open dialog, else the page'),
    fields: z
      .record(
        z.string(),
        z.union(
          [
            z.string(),
            z.number(),
            z.boolean(),
            // a multi-select's whole selection (option labels): it replaces what the field held
            z.array(z.string().max(1024)).max(200),
          ],
          {
            error:
              'takes a string, a number, a boolean, or an array of up to 200 option labels (strings up to 1024 characters)',
          },
        ),
      )
      .describe(
        '{"<label | placeholder | name | css=selector>": value}; a string array is the whole selection of a multi-select',
      ),
    button: z.string().max(1024).optional().describe('a button label or target to click after filling'),
  }),
  'User.pick': strictArgs({
    prompt: z.string().min(1).max(2000),
    timeoutMs: z.number().int().positive().max(3_600_000).optional().describe('close the picker after this long'),
  }),
  /** Closes the open picker: its ask ended in the window (rejected, timed out, cancelled). */
  'User.pickEnd': strictArgs({}),
  'User.notify': strictArgs({ body: z.string().min(1).max(4000), title: z.string().max(200).optional() }),
} as const;

export type PageCommandName = keyof typeof PageCommands;
export const PAGE_COMMAND_NAMES = Object.keys(PageCommands) as PageCommandName[];

/** Commands agents may call through page_exec (the rest are the page halves of dedicated tools). */
export const PUBLIC_COMMANDS = PAGE_COMMAND_NAMES.filter(
  (name) => !/^(Snapshot|UI|User)\./.test(name),
) as PageCommandName[];

/** Commands whose completion is the new document's claim when the page reloads. */
export const NAVIGATION_COMMANDS: ReadonlySet<string> = new Set([
  'Page.navigate',
  'Page.reload',
  'Page.back',
  'Page.forward',
]);

export function isPageCommand(name: string): name is PageCommandName {
  return Object.prototype.hasOwnProperty.call(PageCommands, name);
}

export type PageCommandArgs<N extends PageCommandName> = z.infer<(typeof PageCommands)[N]>;

/** Page results bigger than this are truncated by the page agent, with TRUNCATED_MARK at the cut. */
export const RESULT_CHAR_LIMIT = 200_000;
export const TRUNCATED_MARK = '…[truncated by aiti page agent]';
