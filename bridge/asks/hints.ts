import type { AskKind, AskStatus, Json, RejectReason } from '../protocol/index.js';

/** What the agent should do next, in plain words, for each way an ask can end. */
const REJECTED: Record<RejectReason, string> = {
  not_now:
    'The human cannot answer now. Carry on with work that does not need this answer, and ask again later — not at once.',
  wrong_approach:
    'The human thinks this approach is wrong. Stop this line of work, read their text, and propose a different approach before going on.',
  need_info:
    'The human needs more information to answer. Explain the context (what, why, the options and their trade-offs) and ask again.',
  stop_task:
    'The human wants you to stop this task. Stop now, sum up what you did and what is left, and wait for instructions.',
  other: 'The human declined. Read their text and adjust; do not repeat the same question.',
};

export function hintFor(status: AskStatus, details: { kind: AskKind; value?: Json; reason?: RejectReason }): string {
  switch (status) {
    case 'answered':
      if (details.kind === 'user_confirm' && details.value === false)
        return 'The human said no. Do not go ahead with it; read their note, if any, and choose another way.';
      if (details.kind === 'user_pick_element')
        return 'The human picked this element. Use its ref or selector with page_exec; refs come from the last snapshot.';
      return 'The human answered. Go on with their answer, and follow their note, if any.';
    case 'rejected':
      return REJECTED[details.reason ?? 'other'];
    case 'timed_out':
      return 'The human did not answer in time. Carry on with the safest default (or skip this step), say which you chose, and do not ask again at once.';
    case 'away':
      return 'The human is away. Carry on with what does not need them and keep the question for later; pass wait: true only if you must block until they are back.';
    case 'cancelled':
      return 'The question was withdrawn before the human answered (the call was cancelled, the client disconnected or the bridge stopped). Ask again if you still need the answer.';
  }
}
