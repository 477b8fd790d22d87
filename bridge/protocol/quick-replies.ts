import * as z from 'zod';
import { IsoTime } from './common.js';

/** The human's saved answers and reject reasons (README "The window"), kept in `<dataDir>/aiti-bridge`. */

export const MAX_QUICK_REPLIES = 200;

export const QuickReply = z.object({
  id: z.string().regex(/^[a-z0-9-]{1,40}$/, 'a quick reply id is 1 to 40 of a-z, 0-9 and -'),
  /** `answer`: for answers and notes; `reason`: for reject reasons */
  kind: z.enum(['answer', 'reason']),
  text: z.string().trim().min(1, 'a quick reply needs some text').max(2000),
  /** how often it was used: the window lists the most used first */
  uses: z.number().int().nonnegative(),
  lastUsed: IsoTime.optional(),
});
export type QuickReply = z.infer<typeof QuickReply>;

/** GET /bridge/quick-replies answers this; PUT /bridge/quick-replies takes it and replaces the whole list. */
export const QuickReplies = z.object({
  replies: z
    .array(QuickReply)
    .max(MAX_QUICK_REPLIES, `at most ${MAX_QUICK_REPLIES} quick replies`)
    .refine((list) => new Set(list.map((r) => r.id)).size === list.length, 'two quick replies have the same id'),
});
export type QuickReplies = z.infer<typeof QuickReplies>;
