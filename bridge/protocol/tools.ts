import { z } from 'zod';
import { AgentId, AskId, FrameId, IsoTime, JsonValue, MsgId, PageId } from './common.js';

/** MCP tool input shapes (README "Asking the human"). The MCP server registers these; `aiti-bridge call` validates with them. */

const pageId = PageId.optional().describe('target page; optional when one page is connected or aiti_hello bound one');
const asyncFlag = z.boolean().optional().describe('return {askId} at once; the outcome arrives in aiti_inbox');
const waitFlag = z
  .boolean()
  .optional()
  .describe('wait for the human even when they are marked away (otherwise the answer is "away" at once)');
const timeoutMs = z
  .number()
  .int()
  .positive()
  .max(3_600_000)
  .optional()
  .describe('how long the human has, in ms (default 120000)');

export const ToolInputs = {
  page_exec: z.object({
    pageId,
    frameId: FrameId.optional(),
    cmd: z.string().min(1).describe('a page command such as "Input.click" (see the page command list)'),
    args: z.record(z.string(), JsonValue).optional().describe('the command arguments'),
  }),
  page_snapshot: z.object({ pageId, frameId: FrameId.optional() }),
  bridge_status: z.object({}),
  page_logs: z.object({
    pageId,
    level: z.enum(['debug', 'log', 'info', 'warn', 'error']).optional().describe('this level and above'),
    since: IsoTime.optional(),
    limit: z.number().int().positive().max(1000).optional(),
  }),
  page_network: z.object({
    pageId,
    since: IsoTime.optional(),
    limit: z.number().int().positive().max(1000).optional(),
    failedOnly: z.boolean().optional(),
  }),
  self_ui: z.object({ pageId }),
  form_fill: z.object({
    pageId,
    dialog: z.string().optional().describe('dialog title or selector; default the topmost open dialog, else the page'),
    fields: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .describe('{"<label | placeholder | name | css=selector>": value}'),
    button: z.string().optional().describe('a button label or target to click after filling'),
  }),
  file_stat: z.object({ path: z.string().min(1).describe('an absolute path') }),
  user_pick_element: z.object({ pageId, prompt: z.string().min(1), timeoutMs, wait: waitFlag }),
  user_confirm: z.object({ pageId, prompt: z.string().min(1), async: asyncFlag, timeoutMs, wait: waitFlag }),
  user_choose: z.object({
    pageId,
    prompt: z.string().min(1),
    choices: z.array(z.string().min(1)).min(2).max(50),
    multiple: z.boolean().optional(),
    async: asyncFlag,
    timeoutMs,
    wait: waitFlag,
  }),
  user_input: z.object({
    pageId,
    prompt: z.string().min(1),
    defaultValue: z.string().optional(),
    async: asyncFlag,
    timeoutMs,
    wait: waitFlag,
  }),
  user_presence: z.object({
    pageId,
    prompt: z.string().optional(),
    timeoutMs,
    wait: z.boolean().optional().describe('wait for the human even when marked away'),
  }),
  user_notify: z.object({ pageId, body: z.string().min(1), title: z.string().optional() }),
  aiti_hello: z.object({
    agentId: AgentId.optional(),
    pageId,
    subEvents: z.array(z.enum(['page_error', 'page_log', 'page_network'])).optional(),
  }),
  aiti_inbox: z.object({ ack: z.array(MsgId).optional() }),
} as const;

export type ToolName = keyof typeof ToolInputs;
export const TOOL_NAMES = Object.keys(ToolInputs) as ToolName[];
export type ToolInput<N extends ToolName> = z.infer<(typeof ToolInputs)[N]>;

/** Async ask answer: returned at once by user_* tools with async:true. */
export const AsyncAskAnswer = z.object({ askId: AskId, status: z.literal('open') });
