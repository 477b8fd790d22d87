import type { Message } from '../../../bridge/protocol/index.js';

/** One line of History: a message, or one push to several agents (a push to all makes a message per agent). */
export type HistoryRow = { type: 'message'; message: Message } | { type: 'push'; messages: Message[] };

/** Messages of one push are written within this long of each other (one journal append per agent). */
const SAME_PUSH_MS = 2000;

const imagesKey = (m: Message) => (m.images ?? []).map((i) => i.id).join(',');

/** Whether `m` is the same push as `first`, to another agent: same text and images, sent together. */
function samePush(first: Message, m: Message): boolean {
  return (
    m.kind === 'user_message' &&
    m.from === 'window' &&
    m.text === first.text &&
    imagesKey(m) === imagesKey(first) &&
    Math.abs(Date.parse(m.at) - Date.parse(first.at)) <= SAME_PUSH_MS
  );
}

/**
 * History's rows, newest first: the messages of one push to several agents (same text and images, sent within a
 * moment, each to another agent) become one row that names every recipient with its own status.
 */
export function historyRows(messages: readonly Message[]): HistoryRow[] {
  const rows: HistoryRow[] = [];
  const taken = new Set<number>();
  messages.forEach((first, i) => {
    if (taken.has(i)) return;
    if (first.kind !== 'user_message' || first.from !== 'window') {
      rows.push({ type: 'message', message: first });
      return;
    }
    const group = [first];
    const agents = new Set([first.agentId]);
    // the other copies lie within a moment of it; other messages may have landed in between
    for (let j = i + 1; j < messages.length; j++) {
      const next = messages[j];
      if (!next || Math.abs(Date.parse(next.at) - Date.parse(first.at)) > SAME_PUSH_MS) break;
      if (taken.has(j) || agents.has(next.agentId) || !samePush(first, next)) continue;
      group.push(next);
      agents.add(next.agentId);
      taken.add(j);
    }
    rows.push(group.length > 1 ? { type: 'push', messages: group } : { type: 'message', message: first });
  });
  return rows;
}
