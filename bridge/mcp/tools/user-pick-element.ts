import { MAX_ASK_TIMEOUT_MS, PageCommands, PickResult } from '../../protocol/index.js';
import { askHuman } from '../asker.js';
import type { Asks } from '../../asks/asks.js';
import { checkPageArgs, startPageCommand } from '../page-command.js';
import { resolvePage } from '../resolve-page.js';
import { defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, pageId, waitFlag } from './args.js';

export const userPickElement = defineTool({
  name: 'user_pick_element',
  title: 'Ask the human to point at an element',
  description:
    'The human clicks the element they mean on the page. value: {selector, ref, tag, role?, name?, text, rect, source?}; use its ref with page_exec.',
  // User.pick's own prompt (its length cap included), so a prompt the page would refuse never opens a card
  inputSchema: toolInput(
    'user_pick_element',
    PageCommands['User.pick'].extend({ pageId, timeoutMs: askTimeoutMs, wait: waitFlag }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async (args, call) => {
    const page = resolvePage(call, args.pageId);
    const pick = checkPageArgs('User.pick', { prompt: args.prompt });
    const { asks } = call.bridge;
    return askHuman(
      call,
      {
        kind: 'user_pick_element',
        prompt: args.prompt,
        pageId: page.pageId,
        // a page that never said its URL has none on its card (url is empty)
        ...(page.url ? { pageUrl: page.url } : {}),
        timeoutMs: args.timeoutMs,
      },
      {
        wait: args.wait ?? false,
        onOpen: (ask) => {
          // The ask owns the countdown (the window may pause it), so the page request waits as long as an ask can.
          startPageCommand(call, page, 'User.pick', pick, { timeoutMs: MAX_ASK_TIMEOUT_MS })
            .then(({ answer }) => answer)
            .then(
              (result) => endWithPick(asks, ask.askId, result),
              (error: Error) =>
                asks.end(ask.askId, 'cancelled', {
                  text: `the page could not pick: ${error.message}`,
                  textSaid: { code: 'pick_failed' },
                }),
            );
          // Ended in the window (rejected, timed out, cancelled): take the picker off the page.
          void ask.outcome
            .then(async (outcome) => {
              if (outcome.status === 'answered') return;
              const { answer } = await startPageCommand(call, page, 'User.pickEnd', {});
              await answer;
            })
            .catch(() => undefined);
        },
      },
    );
  },
});

function endWithPick(asks: Asks, askId: string, result: unknown): void {
  const parsed = PickResult.safeParse(result);
  if (!parsed.success) {
    asks.end(askId, 'cancelled', {
      text: `the page answered the picker with an unexpected value: ${JSON.stringify(result)}`,
      textSaid: { code: 'pick_failed' },
    });
    return;
  }
  const pick = parsed.data;
  if (pick.picked) {
    const { picked: _, ...element } = pick;
    asks.end(askId, 'answered', { value: element });
  } else if (pick.reason === 'cancelled')
    asks.end(askId, 'rejected', {
      text: 'the human closed the picker on the page (Esc)',
      textSaid: { code: 'pick_closed_on_page' },
    });
  else if (pick.reason === 'timeout')
    asks.end(askId, 'timed_out', {
      text: 'the picker on the page timed out',
      textSaid: { code: 'pick_timed_out_on_page' },
    });
  else
    asks.end(askId, 'cancelled', {
      text: 'another pick replaced this one on the page',
      textSaid: { code: 'pick_replaced' },
    });
}
