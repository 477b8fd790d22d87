import type { Logger } from '../log.js';
import type { Asks } from './asks.js';
import { answerFromRecords, type LedgerServices } from './record.js';
import type { InboxTimes, ReplayedAsks } from './replayed.js';

/**
 * At start, once the journal is replayed: the asks that were open when the bridge stopped are shown again (async)
 * or ended "the bridge restarted" (sync), and the answers a stop left out of an agent's inbox are put back there
 * (answerFromRecords). One call, for createBridge.
 */
export async function restoreAsks(options: {
  asks: Pick<Asks, 'restore' | 'views'>;
  found: ReplayedAsks;
  ledger: LedgerServices & { inbox: InboxTimes };
  log: Logger;
}): Promise<void> {
  const replayed = options.found.sort(options.ledger.inbox);
  await options.asks.restore(replayed.open);
  await answerFromRecords(options.ledger, replayed);
  if (replayed.open.length)
    options.log
      .child('asks')
      .info(
        `${replayed.open.length} ask(s) were open when the bridge stopped: ${options.asks.views().length} shown again, the others ended`,
      );
}
