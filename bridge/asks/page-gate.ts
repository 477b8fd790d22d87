import { pageCommand, type CommandDanger, type Json, type PageCommandName, type Said } from '../protocol/index.js';
import type { Page } from '../pages/registry.js';
import { Refused } from '../errors.js';
import type { Asker } from './asker.js';
import type { Asks } from './asks.js';
import { summarize } from './ask-human.js';
import { waitForHumanOrWithdraw } from './wait.js';

/** What the human is asked to allow, and the key an "allow for this page" approval is remembered under. */
interface Danger {
  what: string;
  key: string;
  /** `what` as a code and values, said in the human's language by the window (`agent` and `page` added there) */
  said: Said;
}

/**
 * One check per kind of danger a descriptor can carry (PAGE_COMMANDS in bridge/protocol/commands.ts): a command
 * is dangerous because of what its descriptor says, never because of its name.
 */
const DANGERS: Record<
  CommandDanger,
  (page: Page, cmd: PageCommandName, fields: Record<string, Json>) => Danger | undefined
> = {
  script: (_page, cmd) => ({ what: 'run a script in the page', key: cmd, said: { code: 'page_script' } }),
  'storage-write': (_page, cmd, fields) => {
    const area = typeof fields.area === 'string' ? fields.area : 'some';
    const key = typeof fields.key === 'string' ? ` "${fields.key}"` : '';
    const values: Record<string, string> = { area };
    if (typeof fields.key === 'string') values.key = fields.key;
    return {
      what: `write ${area} storage${key}`,
      key: `${cmd} ${area}`,
      said: { code: 'page_storage', values },
    };
  },
  // "allow for this page" is remembered per target origin: allowing one site is not allowing every other
  'cross-origin-navigation': (page, cmd, fields) => {
    const here = originOf(page.url, page.url);
    // a page that never said where it is: the human is shown which page, not an empty URL
    const from = page.url ? here : `page ${page.pageId} (its URL unknown)`;
    if (typeof fields.url !== 'string')
      return { what: `navigate away from ${from}`, key: cmd, said: { code: 'page_navigate' } };
    const target = originOf(fields.url, page.url);
    return target === here
      ? undefined
      : {
          what: `navigate away from ${from} to ${fields.url}`,
          key: `${cmd} ${target}`,
          said: { code: 'page_navigate', values: { to: fields.url } },
        };
  },
};

/**
 * Whether `cmd` with these args needs the human's yes first (docs/SECURITY.md: arbitrary script, leaving the
 * page's origin, writing storage), as its descriptor says.
 */
export function pageCommandDanger(page: Page, cmd: PageCommandName, args: Record<string, Json>): Danger | undefined {
  const kind = pageCommand(cmd).danger;
  if (kind === 'none') return undefined;
  return DANGERS[kind](page, cmd, args);
}

function originOf(url: string, base: string): string {
  try {
    return new URL(url, base || undefined).origin;
  } catch {
    return `unparsable URL ${JSON.stringify(url)}`;
  }
}

/**
 * The gate in front of page_exec: a dangerous command waits for the human's confirmation on a card (kind
 * `page_command`, with the command shown) unless they allowed it for this page before. Throws Refused
 * telling the agent why the command did not run; returns when it may run.
 */
export async function confirmPageCommand(
  asks: Asks,
  asker: Asker,
  page: Page,
  cmd: PageCommandName,
  args: Record<string, Json>,
): Promise<void> {
  const danger = pageCommandDanger(page, cmd, args);
  if (!danger) return;
  if (asks.pageApprovals.has(page, danger.key)) return;
  const spec = {
    kind: 'page_command' as const,
    agentId: asker.agentId,
    prompt: `${asker.agentId} wants to ${danger.what} on ${page.url || page.pageId}`,
    promptSaid: {
      code: danger.said.code,
      values: { ...danger.said.values, agent: asker.agentId, page: page.url || page.pageId },
    },
    pageId: page.pageId,
    // a page that never said its URL has none on its card (url is empty)
    ...(page.url ? { pageUrl: page.url } : {}),
    command: { cmd, args },
  };
  if (asks.away) {
    // on record all the same: History shows what was refused while the human was away
    await asks.immediate(spec, 'away', {
      text: 'the human is marked away; the command did not run',
      textSaid: { code: 'away_command_not_run' },
    });
    throw new Refused(
      `${cmd} needs the human's confirmation (it would ${danger.what}), but they are marked away; it did not run. Carry on without it, or ask again when they are back (user_presence).`,
    );
  }
  const ask = asks.create(spec);
  await ask.opened;
  const outcome = await waitForHumanOrWithdraw(asks, asker, ask);
  if (outcome.status !== 'answered') throw new Refused(`${cmd} did not run: ${summarize(outcome)}. ${outcome.hint}`);
  if (outcome.value !== true)
    throw new Refused(
      `the human did not allow ${cmd} on page ${page.pageId}${outcome.note ? ` (note: ${outcome.note})` : ''}; it did not run. Do not retry it; find another way or ask them what they prefer.`,
    );
  if (ask.remember) asks.pageApprovals.add(page, danger.key);
}
