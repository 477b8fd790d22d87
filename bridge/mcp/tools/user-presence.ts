import { z } from 'zod';
import { strictArgs } from '../../protocol/index.js';
import { askedAbout, askHuman } from '../asker.js';
import { defineTool, toolInput } from '../tool.js';
import { askTimeoutMs, pageId } from './args.js';

export const userPresence = defineTool({
  name: 'user_presence',
  title: 'Is the human at the desk?',
  description:
    'Asks whether the human is there: value "present", or status "away", after which other sync asks answer away at once (unless wait:true).',
  inputSchema: toolInput(
    'user_presence',
    strictArgs({
      pageId,
      prompt: z.string().optional(),
      timeoutMs: askTimeoutMs,
      wait: z.boolean().optional().describe('wait for the human even when marked away'),
    }),
  ),
  annotations: { readOnlyHint: true, openWorldHint: true },
  handle: async (args, call) =>
    askHuman(
      call,
      {
        kind: 'user_presence',
        prompt: args.prompt ?? 'Are you there?',
        choices: ['present', 'away'],
        timeoutMs: args.timeoutMs,
        ...askedAbout(call, args.pageId),
      },
      { wait: args.wait ?? false },
    ),
});
