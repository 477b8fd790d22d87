import { z } from 'zod';
import { MsgId, type InboxResult, type Message, strictArgs } from '../../protocol/index.js';
import { defineTool, toolInput } from '../tool.js';
import { clock } from '../text.js';

export const aitiInbox = defineTool({
  name: 'aiti_inbox',
  title: 'Read your inbox',
  description: `Your messages from the human (pushes, async answers to user_* asks) and the page events you subscribed to with aiti_hello, oldest first: every message you have not acknowledged yet, including ones an earlier read handed out (they come back with the same ids until you ack them; reading never consumes). Pass ack: [ids] once you have handled messages: they become "consumed" and stay in the human's history; unknown ids are reported, not fatal. One answer holds up to 50 messages; "left" says how many wait after it: pass after: <the last id> to read on.`,
  inputSchema: toolInput(
    'aiti_inbox',
    strictArgs({
      ack: z.array(MsgId).optional(),
      after: MsgId.optional().describe('the id of the last message you read: this answer starts after it'),
    }),
  ),
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async handle({ ack, after }, call) {
    const { inbox } = call.bridge;
    const agentId = call.agent.agentId;
    const acks = ack?.length ? await inbox.ack(agentId, ack) : undefined;
    const page = await inbox.take(agentId, after !== undefined ? { after } : {});
    const messages = page.messages;
    const counts = inbox.counts(agentId);
    const last = messages[messages.length - 1];
    const result: InboxResult = {
      messages,
      queueSize: counts.pending + counts.delivered,
      left: page.left,
      ...(page.left && last ? { next: last.id } : {}),
      ...(acks ? { acked: acks.acked } : {}),
      ...(acks?.unknown.length ? { unknownAcks: acks.unknown } : {}),
    };
    const parts = [`${messages.length} message(s) not acknowledged yet`];
    if (page.left && last)
      parts.push(`${page.left} more after these: call aiti_inbox with after: "${last.id}" (and ack what you handled)`);
    if (messages.length) parts.push('each comes back in every read until you ack it');
    if (acks) parts.push(`${acks.acked.length} acked`);
    if (acks?.unknown.length) {
      parts.push(`unknown ids not acked: ${acks.unknown.join(', ')} (not messages of agent "${agentId}")`);
    }
    // images the human pasted into a push or an answer reach the model as image content, not as base64 text
    const images = (await Promise.all(messages.map((m) => call.bridge.images.readAll(m.images)))).flat();
    return {
      structured: result,
      summary: parts.join('; ') + '.',
      text: messages.flatMap(lines).join('\n'),
      ...(images.length ? { images } : {}),
    };
  },
});

/** One line a message; a payload (a page event batch, an ask's outcome) follows it as one line of JSON. */
function lines(m: Message): string[] {
  return [
    `${m.id} ${clock(m.at)} ${m.kind} from ${m.from}${m.ref ? ` (re ${m.ref})` : ''}${m.text ? `: ${m.text}` : ''}`,
    ...(m.payload !== undefined && m.kind !== 'user_message' ? [`  payload: ${JSON.stringify(m.payload)}`] : []),
  ];
}
