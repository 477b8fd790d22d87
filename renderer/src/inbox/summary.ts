import type { Json, Message } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';

const field = (value: Json | undefined, key: string): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

/** One line for a message: its text, or a compact reading of a page event's payload. */
export function summarize(message: Message): string {
  if (message.text) return message.text;
  const payload = message.payload;
  const entries = Array.isArray(payload) ? payload : payload === undefined ? [] : [payload];
  const first = entries[0];
  const more = entries.length > 1 ? ` (+${entries.length - 1} more)` : '';
  switch (message.kind) {
    case 'page_error':
      return `${text(field(first, 'message')) || t().history.pageErrorFallback}${more}`;
    case 'page_log':
      return `${text(field(first, 'level'))}: ${text(field(first, 'text'))}${more}`;
    case 'page_network': {
      const status = field(first, 'status');
      return `${text(field(first, 'method'))} ${text(field(first, 'url'))} → ${typeof status === 'number' ? status : '?'}${more}`;
    }
    default:
      return payload === undefined ? '' : JSON.stringify(payload);
  }
}

/** What a kind of message is called in History. */
export const messageKindLabel = (kind: Message['kind']): string => t().history.kind[kind];

export const isPageEvent = (message: Message): boolean => message.kind.startsWith('page_');

/** A user_notify on record (an agent_note the agent wrote with user_notify): its title ('' when none), else undefined. */
export function notifyTitle(message: Message): string | undefined {
  if (message.kind !== 'agent_note' || message.from !== 'agent') return undefined;
  if (field(message.payload, 'notify') !== true) return undefined;
  return text(field(message.payload, 'title'));
}
