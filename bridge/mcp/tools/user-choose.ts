import { ToolInputs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../../asks/ask-human.js';
import { ToolError, defineTool } from '../tool.js';

export const userChoose = defineTool({
  name: 'user_choose',
  title: 'Ask the human to choose',
  description:
    'Asks the human to pick one of the choices (or several with multiple:true) on a card in the AITI window, with a ' +
    'countdown. Waits for the outcome unless async:true (then it arrives in aiti_inbox). value is the chosen label, ' +
    'or an array of labels when multiple; follow the hint for the other outcomes.',
  inputSchema: ToolInputs.user_choose,
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
