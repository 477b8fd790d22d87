import * as z from 'zod';
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

/**
 * Why a command waits for the human's yes first (docs/SECURITY.md): it runs script, writes storage, or leaves the
 * page's origin. `asks/page-gate.ts` has one check per kind (a navigation is dangerous only when its URL is on
 * another origin than the page's), so a new kind does not compile until the gate handles it.
 */
export type CommandDanger = 'script' | 'storage-write' | 'cross-origin-navigation';

/** What the human is told a command of each kind would do, when it asks them (page_exec's description, the docs). */
export const DANGER_TEXT: Record<CommandDanger, string> = {
  script: 'runs script in the page',
  'storage-write': 'writes storage',
  'cross-origin-navigation': "when the URL is on another origin than the page's",
};

/**
 * Everything the bridge knows about one page command, in one place: the gate, page_exec (and its description),
 * the page requests and the generated docs (README "Page commands", docs/TOOLS.md) read it; nothing else compares
 * command names. Adding a command is this descriptor and its handler in `page-agent/commands/index.ts`.
 */
export interface PageCommand {
  /** the arguments; the page agent checks them with the same schema before it runs the command */
  args: z.ZodObject;
  /** the tool agents reach it through: `page_exec` lists its own, the rest are the page halves of other tools */
  tool: string;
  /** waits for the human's yes on a card first (see CommandDanger), or not */
  danger: CommandDanger | 'none';
  /** completes when the new document connects (a navigation or reload), not when the old one answers */
  navigates?: boolean;
  /** an action that may change the page: page_exec adds the outline's change since the agent's last snapshot */
  changesOutline?: boolean;
  /** an action of the agent's: what it raises in the page (an uncaught error, console.error) is in its result */
  reportsRaised?: boolean;
  /** answers `{data, mimeType}`, which the agent gets as MCP image content rather than base64 in the text */
  image?: boolean;
  /** `args.timeoutMs` is how long it may wait in the page: the bridge waits that long plus the round trip */
  ownTimeout?: boolean;
  /** what it answers, for the docs (README "Page commands", docs/TOOLS.md) */
  result: string;
}

const asClick = 'as `Input.click`';
const asNavigate = 'as `Page.navigate`';

export const PAGE_COMMANDS = {
  'Runtime.evaluate': {
    tool: 'page_exec',
    danger: 'script',
    args: strictArgs({
      expression: z.string().min(1).max(100_000),
      awaitPromise: z.boolean().optional(),
    }),
    result: "`{value}` as JSON (elements described, errors with stack); a CSP without `'unsafe-eval'` is explained",
  },
  'DOM.query': {
    tool: 'page_exec',
    danger: 'none',
    args: strictArgs({
      target: Target,
      all: z.boolean().optional().describe('every match instead of the first'),
      limit: z.number().int().positive().max(500).optional(),
    }),
    result: '`{count, matches: [{ref, tag, role, name, text, selector, visible, rect, attributes}]}`',
  },
  'DOM.getHTML': {
    tool: 'page_exec',
    danger: 'none',
    args: strictArgs({ target: Target.optional(), outer: z.boolean().optional() }),
    result: '`{html}` (the page when no target)',
  },
  'DOM.getText': {
    tool: 'page_exec',
    danger: 'none',
    args: strictArgs({ target: Target.optional() }),
    result: '`{text}` (the page when no target)',
  },
  'Input.click': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ target: Target, button: z.enum(['left', 'middle', 'right']).optional() }),
    result:
      '`{raised?, element, note?, navigating?}`: `raised` what the click raised in the page (uncaught errors, rejections, console.error, each `at` the line written; every `Input.*` has it), `note` when another element covers it, `navigating` when the click left the page',
  },
  'Input.dblclick': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ target: Target }),
    result: asClick,
  },
  'Input.hover': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ target: Target }),
    result: asClick,
  },
  'Input.type': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({
      target: Target,
      text: z.string().max(100_000),
      submit: z.boolean().optional().describe('press Enter after typing'),
      clear: z.boolean().optional().describe('clear the field first (default true)'),
    }),
    result:
      '`{element, value, chose?}`; `submit` presses Enter (implicit form submission); on an Autocomplete the option that is exactly `text` is taken (`chose`); on a select-like combobox typing chooses that option',
  },
  'Input.press': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ key: z.string().min(1).max(64), target: Target.optional() }),
    result: '`{key, element, focused}`; `key` is `Enter`, `Escape`, `Tab`, `Backspace`, `Control+a`, a character …',
  },
  'Input.scroll': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({
      target: Target.optional(),
      x: z.number().optional(),
      y: z.number().optional(),
      to: z.enum(['top', 'bottom', 'element']).optional(),
    }),
    result: 'scroll positions',
  },
  'Input.select': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ target: Target, values: z.array(z.string()).min(1) }),
    result:
      'the selected options (`{selected, shows}` for a combobox: what it shows once the app re-rendered; a multi-value one ends up holding exactly `values`)',
  },
  'Input.check': {
    tool: 'page_exec',
    danger: 'none',
    changesOutline: true,
    reportsRaised: true,
    args: strictArgs({ target: Target, checked: z.boolean().optional() }),
    result: 'the checked state',
  },
  'Page.navigate': {
    tool: 'page_exec',
    danger: 'cross-origin-navigation',
    navigates: true,
    args: strictArgs({ url: z.string().min(1).max(8192), waitFor: WaitForTarget }),
    result:
      '`{url, reloaded, waited?}`: answered by the new document when it connects, or at once for a same-document move; with `waitFor` (a text, or `css=<selector>`) only once that shows in the new document (up to 10 s), so the app has rendered; a command to a page whose tab went on to another origin (a link, `location.assign`; the address bar is not seen) fails at once naming the page it became',
  },
  'Page.reload': {
    tool: 'page_exec',
    danger: 'none',
    navigates: true,
    args: strictArgs({ waitFor: WaitForTarget }),
    result: asNavigate,
  },
  'Page.back': {
    tool: 'page_exec',
    danger: 'none',
    navigates: true,
    args: strictArgs({}),
    result: asNavigate,
  },
  'Page.forward': {
    tool: 'page_exec',
    danger: 'none',
    navigates: true,
    args: strictArgs({}),
    result: asNavigate,
  },
  'Page.waitFor': {
    tool: 'page_exec',
    danger: 'none',
    ownTimeout: true,
    args: strictArgs({
      selector: z.string().max(4096).optional(),
      text: z.string().max(4096).optional(),
      gone: z.boolean().optional(),
      timeoutMs,
    }).refine((a) => a.selector !== undefined || a.text !== undefined, {
      message: 'give selector or text',
      path: ['selector'],
    }),
    result: '`{found or gone, waitedMs, ref?}`; give `selector` or `text`; waits up to `timeoutMs` (default 5 s)',
  },
  'Page.layout': {
    tool: 'page_exec',
    danger: 'none',
    args: strictArgs({ target: Target.optional() }),
    result: "viewport, the element's box, key styles, parent and children boxes",
  },
  'Page.screenshot': {
    tool: 'page_exec',
    danger: 'none',
    image: true,
    args: strictArgs({
      target: Target.optional(),
      maxWidth: z.number().int().positive().max(4096).optional(),
    }),
    result:
      '`{mimeType, data (base64), width, height, note}`: a DOM rendering (modern-screenshot), not a pixel capture; the agent gets the picture as image content',
  },
  'Storage.get': {
    tool: 'page_exec',
    danger: 'none',
    args: strictArgs({
      area: z.enum(['local', 'session', 'cookie']),
      key: z.string().max(1024).optional(),
    }),
    result: '`{items}`: the values (HttpOnly cookies are invisible to pages)',
  },
  'Storage.set': {
    tool: 'page_exec',
    danger: 'storage-write',
    args: strictArgs({
      area: z.enum(['local', 'session', 'cookie']),
      key: z.string().min(1).max(1024),
      value: z.string().max(1_000_000).nullable().describe('null removes the key'),
    }),
    result: '`{ok, key, value}`: the value as the page reads it back; `null` removes the key',
  },
  /**
   * Internal: the page halves of page_snapshot, self_ui, form_fill, user_pick_element and user_notify. Those tools
   * derive their input from these schemas (bridge/mcp/tools/), so a limit here is the tool's limit too.
   */
  'Snapshot.take': {
    tool: 'page_snapshot',
    danger: 'none',
    args: strictArgs({
      target: Target.optional().describe('only this element and what is inside, nothing collapsed'),
      depth: z.number().int().positive().max(200).optional().describe('levels to show'),
      settleMs: z
        .number()
        .int()
        .nonnegative()
        .max(5000)
        .optional()
        .describe('first wait until the page has not changed for a moment, at most this long'),
    }),
    result: 'the outline (`SnapshotResult`, bridge/protocol/snapshot.ts)',
  },
  'UI.scan': {
    tool: 'self_ui',
    danger: 'none',
    args: strictArgs({ frameId }),
    result: 'the controls found (`UiScanResult`, bridge/protocol/snapshot.ts)',
  },
  'UI.fill': {
    tool: 'form_fill',
    danger: 'none',
    reportsRaised: true,
    args: strictArgs({
      frameId,
      dialog: z.string().max(1024).optional().describe('title or selector of the dialog to fill'),
      fields: z
        .record(
          // what form_fill compares is the key without spaces and a trailing ':' or '*' (a label's "Name: *")
          z.string().regex(/[^\s:*]/, {
            error:
              'a field key names a label, placeholder, name, css=selector or ref; it cannot be empty or only spaces, colons and stars',
          }),
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
        .describe('{"<label | placeholder | name | css=selector>": value}'),
      button: z.string().max(1024).optional().describe('label or target to press after'),
      pressAnyway: z.boolean().optional().describe('press button even if some fields were not filled'),
    }),
    result: 'what each field holds now (`UiFillResult`, bridge/protocol/snapshot.ts)',
  },
  'User.pick': {
    tool: 'user_pick_element',
    danger: 'none',
    args: strictArgs({
      prompt: z.string().min(1).max(2000),
      timeoutMs: z.number().int().positive().max(3_600_000).optional().describe('close the picker after this long'),
    }),
    result: 'the element the human picked (`PickResult`, bridge/protocol/snapshot.ts)',
  },
  /** Closes the open picker: its ask ended in the window (rejected, timed out, cancelled). */
  'User.pickEnd': {
    tool: 'user_pick_element',
    danger: 'none',
    args: strictArgs({}),
    result: '`{closed}`',
  },
  'User.notify': {
    tool: 'user_notify',
    danger: 'none',
    args: strictArgs({ body: z.string().min(1).max(4000), title: z.string().max(200).optional() }),
    result: '`{shown: "notification" | "toast", permission}`',
  },
  /** page_logs asks a connected page first: it sends the console, errors and requests it has not sent yet */
  'Watch.flush': {
    tool: 'page_logs',
    danger: 'none',
    args: strictArgs({}),
    result: '`{flushed}` once the bridge has what the page held',
  },
} satisfies Record<string, PageCommand>;

export type PageCommandName = keyof typeof PAGE_COMMANDS;
export const PAGE_COMMAND_NAMES = Object.keys(PAGE_COMMANDS) as PageCommandName[];

/** The descriptor of `name` (PAGE_COMMANDS), typed as the common PageCommand so any fact can be read. */
export function pageCommand(name: PageCommandName): PageCommand {
  return PAGE_COMMANDS[name];
}

/** The args schema of each command, by name (the page agent and the tools derived from a command read these). */
export const PageCommands = Object.fromEntries(PAGE_COMMAND_NAMES.map((name) => [name, PAGE_COMMANDS[name].args])) as {
  [N in PageCommandName]: (typeof PAGE_COMMANDS)[N]['args'];
};

/** Commands agents may call through page_exec (the rest are the page halves of dedicated tools). */
export const PUBLIC_COMMANDS = PAGE_COMMAND_NAMES.filter((name) => pageCommand(name).tool === 'page_exec');

/** Commands whose completion is the new document's claim when the page reloads. */
export const NAVIGATION_COMMANDS: ReadonlySet<string> = new Set(
  PAGE_COMMAND_NAMES.filter((name) => pageCommand(name).navigates),
);

export function isPageCommand(name: string): name is PageCommandName {
  return Object.prototype.hasOwnProperty.call(PageCommands, name);
}

export type PageCommandArgs<N extends PageCommandName> = z.infer<(typeof PageCommands)[N]>;

/** Page results bigger than this are truncated by the page agent, with TRUNCATED_MARK at the cut. */
export const RESULT_CHAR_LIMIT = 200_000;
export const TRUNCATED_MARK = '…[truncated by aiti page agent]';
