import { AskCountdown, pickOf, type AskOutcome, type AskRecord } from '../protocol/index.js';
import { handOver, type DeliveryServices } from '../inbox/delivery.js';
import type { Inbox } from '../inbox/inbox.js';
import type { AskJournal } from '../journal/lines.js';
import { answerIdOf, recordIdOf } from './replayed.js';
import { summarize } from './ask-human.js';
import type { AskLedger } from './ledger.js';
import { outcomeOf } from './outcome.js';
import { KIND_WORD, endedLine } from './record-text.js';

/**
 * What the journal ledger writes to: the journal (the asks' own lines, through their narrow port), the inbox (an
 * ask's record and answer are messages), and the agents' live channels for an answer.
 */
export interface LedgerServices extends DeliveryServices {
  journal: AskJournal;
  inbox: Pick<Inbox, 'add' | 'markDelivered' | 'find'>;
}

/**
 * The asks' ledger on the asking agent's journal (README "Asking the human"): an `ask_opened` line when an ask
 * opens, an `ask_countdown` line when the human pauses or resumes it, an `ask_handed_over` line when its asker
 * stops waiting, and at its end its record, a consumed inbox
 * message of kind `ask` (History shows it, the agent's inbox never does), with an id made from the ask id. An
 * async ask's outcome goes in the same write as a user_answer (id made from the ask id too), then to the agent's
 * live channel. Each resolves once on disk.
 */
export function journalLedger(bridge: LedgerServices): AskLedger {
  return {
    opened: (ask) => bridge.journal.append(ask.agentId, { type: 'ask_opened', ask }),
    countdown: (agentId, change) =>
      bridge.journal.append(agentId, { type: 'ask_countdown', ...pickOf(AskCountdown, change) }),
    handedOver: (agentId, askId, at) => bridge.journal.append(agentId, { type: 'ask_handed_over', askId, at }),
    async ended(record, outcome, toInbox) {
      // one turn of the event loop: the record and the answer share the journal's write, record first
      const writes = [bridge.inbox.add(record.agentId, recordMessage(record), 'consumed')];
      if (toInbox) writes.push(bridge.inbox.add(record.agentId, answerMessage(record, outcome)));
      const [, answer] = await Promise.all(writes);
      if (answer)
        void handOver(bridge, answer).catch((error: unknown) =>
          bridge.log.child('asks').warn(`the answer to ${record.askId} waits in the inbox:`, error),
        );
    },
  };
}

function recordMessage(record: AskRecord) {
  return {
    id: recordIdOf(record.askId),
    kind: 'ask' as const,
    from: record.decidedBy === 'human' ? ('window' as const) : ('bridge' as const),
    text: `${KIND_WORD[record.kind]}: ${record.prompt} → ${endedLine(record)}`,
    payload: record,
    ref: record.askId,
  };
}

/** The question in one short line, for the text of its answer (the payload keeps it whole). */
function questionLine(prompt: string): string {
  const line = prompt.trim().split('\n').filter(Boolean).pop() ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

/**
 * An async ask's outcome as the agent reads it: it names the ask and its question, so the agent knows what the
 * answer answers wherever it reads it.
 */
function answerMessage(record: AskRecord, outcome: AskOutcome, note = '') {
  return {
    id: answerIdOf(record.askId),
    kind: 'user_answer' as const,
    // a time-out or a withdrawn ask is the bridge's word, not the human's (the inbox notice names the sender)
    from: record.decidedBy === 'human' ? ('window' as const) : ('bridge' as const),
    text: `${summarize(outcome)} — to ${outcome.askId}: "${questionLine(record.prompt)}"${note}`,
    payload: { ...outcome, question: record.prompt },
    ref: outcome.askId,
    ...(outcome.images?.length ? { images: outcome.images } : {}),
  };
}

/** Said with the answer of a sync ask that ended just before the bridge stopped. */
const MAYBE_LOST = ' — given here because the bridge stopped right after: the call that asked may not have received it';

/**
 * At start: async asks whose record is on disk but whose answer never reached the agent's inbox (the bridge
 * stopped between the two lines of one write), and sync asks that ended just before the bridge stopped (their call
 * may have died before its answer left), get their answer in the inbox now, made from the record.
 */
export async function answerFromRecords(
  bridge: LedgerServices,
  found: { unanswered: string[]; late: string[] },
): Promise<void> {
  const late = new Set(found.late);
  for (const askId of [...found.unanswered, ...found.late]) {
    const payload = (await bridge.inbox.find(recordIdOf(askId)))?.payload;
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) continue;
    const record = payload as unknown as AskRecord;
    const outcome = outcomeOf(askId, record.kind, record);
    await bridge.inbox.add(record.agentId, answerMessage(record, outcome, late.has(askId) ? MAYBE_LOST : ''));
  }
}
