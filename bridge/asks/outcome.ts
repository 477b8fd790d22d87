import { AskOutcome, pickOf, type AskEnd, type AskKind } from '../protocol/index.js';
import { hintFor } from './hints.js';

/**
 * The outcome an agent receives for an ask that ended: how it ended (the `AskResult` fields of its end) and what to
 * do next. The one place it is made, for the waiting call, the inbox and the answers a restart puts back from a
 * record (a record is an end too).
 */
export function outcomeOf(askId: string, kind: AskKind, end: AskEnd): AskOutcome {
  return pickOf(AskOutcome, { ...end, askId, hint: hintFor(end.status, { kind, ...end }) });
}
