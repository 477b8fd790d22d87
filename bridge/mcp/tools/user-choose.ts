import { z } from 'zod';
import { AskChoices, strictArgs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../asker.js';
import { ToolError, defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, asyncFlag, pageId, prompt, waitFlag } from './args.js';

export const userChoose = defineTool({
  name: 'user_choose',
  title: 'Ask the human to choose',
  description: 'The human picks one of choices (several with multiple:true). value: the label(s).',
  inputSchema: toolInput(
    'user_choose',
    strictArgs({
      pageId,
      prompt,
      choices: AskChoices,
      multiple: z.boolean().optional(),
      async: asyncFlag,
      timeoutMs: askTimeoutMs,
      wait: waitFlag,
    }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async (args, call) => {
    const twice = args.choices.filter((c, i) => args.choices.indexOf(c) !== i);
    if (twice.length > 0)
      throw new ToolError(`choices must differ; ${JSON.stringify(twice[0])} is given twice`, 'choices');
    return askHuman(
      call,
      {
        kind: 'user_choose',
        prompt: args.prompt,
        choices: args.choices,
        multiple: args.multiple ?? false,
        timeoutMs: args.timeoutMs,
        ...askedAbout(call, args.pageId),
      },
      args,
    );
  },
});
