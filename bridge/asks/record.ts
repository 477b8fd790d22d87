import type { AskRecord } from '../protocol/index.js';
import type { Inbox } from '../inbox/inbox.js';
import type { Logger } from '../log.js';
import type { Asks } from './asks.js';
import { KIND_WORD, endedLine } from './record-text.js';

/**
 * Puts every ended ask on record (README "Asking the human"): a consumed inbox message of kind `ask` in the
 * asking agent's journal, so History shows it and a restart keeps it, and the agent's inbox never sees it.
 * `flush` waits for the records still being written (the bridge calls it before it closes the journal).
 */
export function recordAsks(bridge: { asks: Pick<Asks, 'onRecord'>; inbox: Pick<Inbox, 'add'>; log: Logger }): {
  stop(): void;
  flush(): Promise<void>;
} {
  const writing = new Set<Promise<unknown>>();
  const stop = bridge.asks.onRecord((record: AskRecord) => {
    const write = bridge.inbox
      .add(
        record.agentId,
        {
          kind: 'ask',
          from: record.decidedBy === 'human' ? 'window' : 'bridge',
          text: `${KIND_WORD[record.kind]}: ${record.prompt} → ${endedLine(record)}`,
          payload: record,
          ref: record.askId,
        },
        'consumed',
      )
      .catch((error: unknown) =>
        bridge.log.child('asks').error(`could not journal the record of ${record.askId}:`, error),
      );
    writing.add(write);
    void write.finally(() => writing.delete(write));
  });
  return { stop, flush: async () => void (await Promise.all([...writing])) };
}
