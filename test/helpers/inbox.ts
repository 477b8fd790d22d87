import { AgentRegistry } from '../../bridge/agents/registry.js';
import { journalLedger } from '../../bridge/asks/record.js';
import type { JournalDisk } from '../../bridge/journal/disk.js';
import type { AskLines } from '../../bridge/journal/lines.js';
import { JournalReplay } from '../../bridge/journal/replay.js';
import { JournalWriter } from '../../bridge/journal/writer.js';
import { Inbox } from '../../bridge/inbox/inbox.js';
import { createLogger, type Logger } from '../../bridge/log.js';

/** A logger that keeps its warnings, so a test can read what a person would read on stderr. */
export function recordingLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const base = createLogger('test', 'silent');
  const log: Logger = { ...base, warn: (message: string) => warnings.push(message), child: () => log };
  return { log, warnings };
}

/**
 * The inbox over a journal in `dir`, replayed as the bridge opens it at start; `disk` a fault-injecting one
 * (test/helpers/faulty-disk.ts) when the test needs one.
 */
export function openInbox(
  dir: string,
  options: { disk?: JournalDisk; maxBytes?: number; log?: Logger; now?: () => Date; asks?: AskLines } = {},
): { inbox: Inbox; journal: JournalWriter } {
  const log = options.log ?? createLogger('test', 'silent');
  const journal = new JournalWriter({
    dir,
    bridgeVersion: 'test',
    log,
    ...(options.disk ? { disk: options.disk } : {}),
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const inbox = new Inbox(journal, options.now);
  const replay = new JournalReplay({ dir, log });
  inbox.replay((messages) => replay.run({ messages, ...(options.asks ? { asks: options.asks } : {}) }));
  return { inbox, journal };
}

/** Pushes `count` messages to claude at once; the ids acknowledged and the errors of the refused ones. */
export async function pushAtOnce(
  inbox: Inbox,
  count: number,
  tag: string,
): Promise<{ ok: string[]; refused: string[] }> {
  const settled = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      inbox.add('claude', { kind: 'user_message', from: 'window', text: `${tag} #${i} ${'x'.repeat(60)}` }),
    ),
  );
  return {
    ok: settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value.id] : [])),
    refused: settled.flatMap((s) => (s.status === 'rejected' ? [String((s.reason as Error).message)] : [])),
  };
}

/** The asks' ledger over an inbox and its journal, as the bridge builds it (no agents yet, no stored images). */
export function askLedger(journal: JournalWriter, inbox: Inbox, log: Logger = createLogger('test', 'silent')) {
  return journalLedger({
    journal,
    inbox,
    agents: new AgentRegistry(60_000),
    images: { readAll: () => Promise.resolve([]) },
    log,
  });
}
