import { AskRecord, type Message } from '../../../bridge/protocol/index.js';

/** The ask records among loaded messages, by askId: how each ask ended, as History shows it. */
export function askRecords(messages: readonly Message[]): Map<string, AskRecord> {
  const records = new Map<string, AskRecord>();
  for (const message of messages) {
    if (message.kind !== 'ask') continue;
    const parsed = AskRecord.safeParse(message.payload);
    if (parsed.success) records.set(parsed.data.askId, parsed.data);
  }
  return records;
}
