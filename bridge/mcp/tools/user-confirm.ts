import { strictArgs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../asker.js';
import { defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, asyncFlag, pageId, prompt, waitFlag } from './args.js';

export const userConfirm = defineTool({
  name: 'user_confirm',
  title: 'Ask the human yes or no',
  description: 'A yes/no question to the human. value: true or false, with their note if any.',
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
