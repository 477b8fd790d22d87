import * as z from 'zod';
import { AskOutcome, type AskEnd, type AskRecord, type Json, type Message } from '../../../bridge/protocol/index.js';
import { t } from '../i18n/index.js';
import { outcomeDetails, outcomeLabel } from '../cards/outcome.js';

/** An async ask's answer in the agent's inbox: the outcome, and the question it answers. */
const AnswerPayload = AskOutcome.extend({ question: z.string().optional() });

/**
 * An async answer in the human's words: the question, how it ended and who decided, read from its ask's record
 * when History has it (the bridge's own text is English for the agent).
 */
export function answerSummary(message: Message, records?: ReadonlyMap<string, AskRecord>): string | undefined {
  if (message.kind !== 'user_answer') return undefined;
  const parsed = AnswerPayload.safeParse(message.payload);
  if (!parsed.success) return undefined;
  const { question, status, value, note, reason, text } = parsed.data;
  const record = records?.get(parsed.data.askId);
  const end: AskEnd = record ?? {
    status,
    ...(value !== undefined ? { value } : {}),
    ...(note ? { note } : {}),
    ...(reason ? { reason } : {}),
    ...(text ? { text } : {}),
    decidedBy: message.from === 'window' ? 'human' : 'bridge',
  };
  const kind = record?.kind ?? 'user_input';
  const words = t().history;
  const line = question?.trim().split('\n').filter(Boolean).pop();
  return [
    line ? words.answerTo(line.length > 160 ? `${line.slice(0, 159)}…` : line) : '',
    outcomeLabel(kind, { outcome: end, here: true }).label,
    ...outcomeDetails(kind, end, false),
  ]
    .filter(Boolean)
    .join(' · ');
}

const field = (value: Json | undefined, key: string): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? value[key] : undefined;
const text = (value: Json | undefined): string => (typeof value === 'string' ? value : '');

/** One line for a message: its text, or a compact reading of a page event's payload. */
export function summarize(message: Message, records?: ReadonlyMap<string, AskRecord>): string {
  const answer = answerSummary(message, records);
  if (answer !== undefined) return answer;
  const payload = message.payload;
  // a page event's text is the bridge's English for the agent; the window reads what the page sent
  if (message.text && (!message.kind.startsWith('page_') || payload === undefined)) return message.text;
  const entries = Array.isArray(payload) ? payload : payload === undefined ? [] : [payload];
  const first = entries[0];
  const more = entries.length > 1 ? t().history.more(entries.length - 1) : '';
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
