import { z } from 'zod';
import { AskPrompt, MAX_ASK_TIMEOUT_MS, PageId } from '../../protocol/index.js';

/** Arguments several tools share, described once so every tool explains them the same way. */

export const pageId = PageId.optional().describe(
  'target page; optional when one page is connected or aiti_hello bound one (a call without it stays with the page you last used: it never moves to another page by itself)',
);
export const asyncFlag = z.boolean().optional().describe('return {askId} at once; the outcome arrives in aiti_inbox');
export const waitFlag = z
  .boolean()
  .optional()
  .describe('wait for the human even when they are marked away (otherwise the answer is "away" at once)');
export const askTimeoutMs = z
  .number()
  .int()
  .positive()
  .max(MAX_ASK_TIMEOUT_MS)
  .optional()
  .describe('how long the human has, in ms (default 120000)');
export const prompt = AskPrompt;
