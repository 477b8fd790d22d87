import type { Json } from '../../protocol/common.js';
import {
  isPageCommand,
  PAGE_COMMAND_NAMES,
  pageCommand,
  PageCommands,
  type PageCommandArgs,
  type PageCommandName,
} from '../../protocol/commands.js';
import { describeZodError } from '../../protocol/format.js';
import { capResult } from './cap.js';
import { notify } from '../human/notify.js';
import { endPick, pick } from '../human/picker.js';
import { takeSnapshot } from './snapshot.js';
import { fill } from '../ui/fill.js';
import { watchAction } from '../watch/raised.js';
import { scan } from '../ui/scan.js';
import * as dom from './dom.js';
import * as input from './input.js';
import { layout } from './layout.js';
import * as nav from './navigation.js';
import { NO_REPLY, type Reply } from './navigation.js';
import { evaluate } from './runtime.js';
import { screenshot } from './screenshot.js';
import * as storage from './storage.js';
import { waitFor } from './wait.js';

export { NO_REPLY };

/** What commands may need from the running agent. */
export interface AgentInfo {
  frameworks(): string[];
  /** sends the console, errors and requests not sent yet (page_logs reads after it) */
  drainWatch(): Promise<void>;
  root?: string;
}

type Handlers = { [N in PageCommandName]: (args: PageCommandArgs<N>, agent: AgentInfo) => Reply | Promise<Reply> };

const handlers: Handlers = {
  'Runtime.evaluate': evaluate,
  'DOM.query': dom.query,
  'DOM.getHTML': dom.getHtml,
  'DOM.getText': dom.getText,
  'Input.click': input.click,
  'Input.dblclick': input.dblclick,
  'Input.hover': input.hover,
  'Input.type': input.type,
  'Input.press': input.pressKey,
  'Input.scroll': input.scroll,
  'Input.select': input.select,
  'Input.check': input.check,
  'Page.navigate': nav.navigate,
  'Page.reload': nav.reload,
  'Page.back': nav.back,
  'Page.forward': nav.forward,
  'Page.waitFor': waitFor,
  'Page.layout': layout,
  'Page.screenshot': screenshot,
  'Storage.get': storage.get,
  'Storage.set': storage.set,
  'Snapshot.take': (args, agent) => takeSnapshot(args, agent.frameworks()),
  'UI.scan': () => scan(),
  'UI.fill': (args) => fill(args),
  'User.pick': (args, agent) => pick(args.prompt, agent.root, args.timeoutMs),
  'User.pickEnd': () => ({ closed: endPick() }),
  'User.notify': notify,
  'Watch.flush': async (_args, agent) => {
    await agent.drainWatch();
    return { flushed: true };
  },
};

function isObject(value: Reply): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export type Outcome = { ok: true; result: Json } | { ok: false; error: string } | typeof NO_REPLY;

/** Validates with the same zod schemas the bridge uses, runs, and caps the result's size. */
export async function runCommand(cmd: string, args: unknown, agent: AgentInfo): Promise<Outcome> {
  if (!isPageCommand(cmd))
    return { ok: false, error: `unknown page command "${cmd}"; known: ${PAGE_COMMAND_NAMES.join(', ')}` };
  const parsed = PageCommands[cmd].safeParse(args ?? {});
  if (!parsed.success) return { ok: false, error: `${cmd}: ${describeZodError(parsed.error).message}` };
  try {
    const handler = handlers[cmd] as (args: unknown, agent: AgentInfo) => Reply | Promise<Reply>;
    // the agent's actions: what they raise in the page (an uncaught error, console.error) is part of their result
    if (!pageCommand(cmd).reportsRaised) {
      const reply = await handler(parsed.data, agent);
      return reply === NO_REPLY ? NO_REPLY : { ok: true, result: capResult(reply) };
    }
    const { value: reply, raised } = await watchAction(async () => handler(parsed.data, agent));
    if (reply === NO_REPLY) return NO_REPLY;
    // first, so it is the first thing the agent reads of the result
    const result = raised.length && isObject(reply) ? { raised, ...reply } : reply;
    return { ok: true, result: capResult(result) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${cmd}: ${message}`.slice(0, 8000) };
  }
}
