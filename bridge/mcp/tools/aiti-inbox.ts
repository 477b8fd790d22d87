import { z } from 'zod';
import { MsgId, type InboxResult, strictArgs } from '../../protocol/index.js';
import { defineTool, toolInput } from '../tool.js';
import { clock } from '../text.js';

export const aitiInbox = defineTool({
  name: 'aiti_inbox',
  title: 'Read your inbox',
  description:
    'Your messages from the human (pushes, async answers to user_* asks) and the page events you subscribed to with aiti_hello. Returns the pending messages, oldest first (up to 50; they become "delivered": reading never consumes), and queueSize, the messages not yet consumed. Pass ack: [ids] once you have handled messages: they become "consumed" and stay in the human\'s history. Unknown ids are reported, not fatal.',
  inputSchema: toolInput('aiti_inbox', strictArgs({ ack: z.array(MsgId).optional() })),
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async handle({ ack }, call) {
    const { inbox } = call.bridge;
    const agentId = call.agent.agentId;
    const acks = ack?.length ? await inbox.ack(agentId, ack) : undefined;
    const messages = await inbox.take(agentId);
    const counts = inbox.counts(agentId);
    const result: InboxResult = {
      messages,
      queueSize: counts.pending + counts.delivered,
      ...(acks ? { acked: acks.acked } : {}),
      ...(acks?.unknown.length ? { unknownAcks: acks.unknown } : {}),
    };
    const parts = [`${messages.length} new message(s)`];
    if (counts.pending) parts.push(`${counts.pending} more pending: call aiti_inbox again`);
    if (counts.delivered) parts.push(`${counts.delivered} read but not acked: ack them when handled`);
    if (acks) parts.push(`${acks.acked.length} acked`);
    if (acks?.unknown.length) {
      parts.push(`unknown ids not acked: ${acks.unknown.join(', ')} (not messages of agent "${agentId}")`);
    }
    // one line a message; a payload (a page event batch, an ask's outcome) follows it as one line of JSON
    const text = messages
      .flatMap((m) => [
        `${m.id} ${clock(m.at)} ${m.kind} from ${m.from}${m.ref ? ` (re ${m.ref})` : ''}${m.text ? `: ${m.text}` : ''}`,
        ...(m.payload !== undefined && m.kind !== 'user_message' ? [`  payload: ${JSON.stringify(m.payload)}`] : []),
      ])
      .join('\n');
    // images the human pasted into a push or an answer reach the model as image content, not as base64 text
    const images = (await Promise.all(messages.map((m) => call.bridge.images.readAll(m.images)))).flat();
    return { structured: result, summary: parts.join('; ') + '.', text, ...(images.length ? { images } : {}) };
  },
});
