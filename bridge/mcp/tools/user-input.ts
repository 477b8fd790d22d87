import { AskDefaultValue, strictArgs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../asker.js';
import { defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, asyncFlag, pageId, prompt, waitFlag } from './args.js';

export const userInput = defineTool({
  name: 'user_input',
  title: 'Ask the human for text',
  description: 'The human types an answer (prefilled with defaultValue). value: the text.',
  inputSchema: toolInput(
    'user_input',
    strictArgs({
      pageId,
      prompt,
      defaultValue: AskDefaultValue.optional(),
      async: asyncFlag,
      timeoutMs: askTimeoutMs,
      wait: waitFlag,
    }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async (args, call) =>
    askHuman(
      call,
      {
        kind: 'user_input',
        prompt: args.prompt,
        ...(args.defaultValue !== undefined ? { defaultValue: args.defaultValue } : {}),
        timeoutMs: args.timeoutMs,
        ...askedAbout(call, args.pageId),
      },
      args,
    ),
});
