import { strictArgs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../asker.js';
import { defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, asyncFlag, pageId, prompt, waitFlag } from './args.js';

export const userConfirm = defineTool({
  name: 'user_confirm',
  title: 'Ask the human yes or no',
  description:
    'Asks the human a yes/no question on a card in the AITI window, with a countdown (timeoutMs, default 120 s). ' +
    'Waits for the outcome unless async:true (then the outcome arrives in aiti_inbox). The result is ' +
    '{status: answered|rejected|timed_out|away|cancelled, value (true/false), note?, reason?, text?, hint}: follow the hint.',
  inputSchema: toolInput(
    'user_confirm',
    strictArgs({ pageId, prompt, async: asyncFlag, timeoutMs: askTimeoutMs, wait: waitFlag }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async (args, call) =>
    askHuman(
      call,
      { kind: 'user_confirm', prompt: args.prompt, timeoutMs: args.timeoutMs, ...askedAbout(call, args.pageId) },
      args,
    ),
});
