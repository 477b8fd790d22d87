import type { AnswerBody, AskView } from '../../bridge/protocol/index.js';
import type { OpenAsk } from '../../renderer/src/store.js';

let counter = 0;

/** An open ask as the window holds it, received now, with `remainingMs` of a 60 s countdown left. */
export function openAsk(
  fields: Partial<AskView> & Pick<AskView, 'kind' | 'prompt'>,
  receivedAt = performance.now(),
): OpenAsk {
  counter += 1;
  const created = new Date(Date.UTC(2026, 10, 30, 12, 0, counter));
  const remainingMs = fields.remainingMs ?? 60_000;
  return {
    askId: `a${counter}`,
    agentId: 'claude',
    pageId: 'p1',
    createdAt: created.toISOString(),
    deadline: new Date(created.getTime() + remainingMs).toISOString(),
    remainingMs,
    paused: false,
    ...fields,
    receivedAt,
    totalMs: remainingMs,
  };
}

/** Collects what the card posts to /bridge/answer. */
export function recorder(): { bodies: AnswerBody[]; send(body: AnswerBody): Promise<void> } {
  const bodies: AnswerBody[] = [];
  return {
    bodies,
    send: async (body) => {
      bodies.push(body);
    },
  };
}
