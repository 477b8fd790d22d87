import { createContext, useContext } from 'react';
import type { QuickReplyBook } from './useQuickReplies.js';

const none: QuickReplyBook = {
  replies: [],
  of: () => [],
  add: async () => undefined,
  edit: async () => undefined,
  remove: async () => undefined,
  used: async () => undefined,
};

/** The window's one book of quick replies, for every card (App provides it). */
export const QuickRepliesContext = createContext<QuickReplyBook>(none);

export const useQuickBook = (): QuickReplyBook => useContext(QuickRepliesContext);

/** A quick reply put into a field: the field's text, then the reply after a space (or the reply alone). */
export function withReply(field: string, reply: string): string {
  if (!field.trim()) return reply;
  return /\s$/.test(field) ? `${field}${reply}` : `${field} ${reply}`;
}
