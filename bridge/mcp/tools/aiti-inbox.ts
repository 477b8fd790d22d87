import { z } from 'zod';
import type { ImageRef } from '../../protocol/index.js';
import { MsgId, type InboxResult, type Json, type Message, strictArgs } from '../../protocol/index.js';
import { defineTool, toolInput, ToolError, type ToolCall, type ToolResult } from '../tool.js';
import { clock } from '../text.js';
import { AnswerBudget, ANSWER_BYTES, IMAGE_BYTES, bytesOf, cutToFit } from './budget.js';

/** `<message id>#<n>`: the n-th image (from 1) of one of your messages, as an answer names one it could not carry. */
const ImageLink = z
  .string()
  .regex(/^[A-Za-z0-9._:@-]+#[1-9]\d*$/, 'an image is "<message id>#<n>", as an answer names it');

export const aitiInbox = defineTool({
  name: 'aiti_inbox',
  title: 'Read your inbox',
  description: `Your messages: the human's pushes, async ask outcomes and subscribed page events, oldest first (up to 50, ${ANSWER_BYTES / 1024} KiB). Unacked ones come back until you ack:[ids]. More: after:<last id>; a waiting image: image:"<id>#<n>".`,
  inputSchema: toolInput(
    'aiti_inbox',
    strictArgs({
      ack: z.array(MsgId).optional(),
      after: MsgId.optional(),
      image: ImageLink.optional(),
    }),
  ),
  annotations: { readOnlyHint: false, idempotentHint: false, openWorldHint: false },
  async handle({ ack, after, image }, call) {
    if (image !== undefined) return oneImage(call, image);
    const { inbox } = call.bridge;
    const agentId = call.agent.agentId;
    const acks = ack?.length ? await inbox.ack(agentId, ack) : undefined;
    const budget = new AnswerBudget();
    /** the images each message of the page carries in this answer (the first message's may be fewer than all) */
    const carried: number[] = [];
    let imageBytes = 0;
    const page = await inbox.take(agentId, {
      ...(after !== undefined ? { after } : {}),
      // whole messages while they fit: the text lines, the JSON, the images (base64)
      accept: (message, index) => {
        const text = bytesOf(lines(message).join('\n')) + 1;
        const json = bytesOf(JSON.stringify(message)) + 1;
        const sizes = (message.images ?? []).map(base64Bytes);
        const all = sizes.reduce((sum, size) => sum + size, 0);
        const first = index === 0;
        if (!budget.fits(text, json, first) || (!first && imageBytes + all > IMAGE_BYTES)) return false;
        budget.take(text, json);
        // the first message comes even when its images do not all fit: those are named, to be asked for one by one
        let count = 0;
        while (count < sizes.length && imageBytes + (sizes[count] ?? 0) <= IMAGE_BYTES)
          imageBytes += sizes[count++] ?? 0;
        carried.push(count);
        return true;
      },
    });
    // a message that alone is larger than an answer (it comes first, alone) is cut down to fit, and says so
    const messages = page.messages.length === 1 ? page.messages.map(fitted) : page.messages;
    const waiting = messages.flatMap((m, i) =>
      (m.images ?? []).slice(carried[i] ?? 0).map((_, n) => `${m.id}#${(carried[i] ?? 0) + n + 1}`),
    );
    const counts = inbox.counts(agentId);
    const last = messages[messages.length - 1];
    const result: InboxResult = {
      messages,
      queueSize: counts.pending + counts.delivered,
      left: page.left,
      ...(page.left && last ? { next: last.id } : {}),
      ...(waiting.length ? { imagesWaiting: waiting } : {}),
      ...(acks ? { acked: acks.acked } : {}),
      ...(acks?.unknown.length ? { unknownAcks: acks.unknown } : {}),
    };
    const parts = [`${messages.length} message(s) not acknowledged yet`];
    if (page.left && last)
      parts.push(`${page.left} more after these: call aiti_inbox with after: "${last.id}" (and ack what you handled)`);
    if (waiting.length)
      parts.push(
        `${waiting.length} image(s) did not fit this answer: call aiti_inbox with image: "${waiting[0]}" (and so on: ${waiting.join(', ')})`,
      );
    if (messages.length) parts.push('each comes back in every read until you ack it');
    if (acks) parts.push(`${acks.acked.length} acked`);
    if (acks?.unknown.length) {
      parts.push(`unknown ids not acked: ${acks.unknown.join(', ')} (not messages of agent "${agentId}")`);
    }
    // images the human pasted into a push or an answer reach the model as image content, not as base64 text
    const images = (
      await Promise.all(messages.map((m, i) => call.bridge.images.readAll((m.images ?? []).slice(0, carried[i] ?? 0))))
    ).flat();
    return {
      structured: result,
      summary: parts.join('; ') + '.',
      text: messages.flatMap(lines).join('\n'),
      ...(images.length ? { images } : {}),
    };
  },
});

/** One image of one of the agent's own messages, alone in its answer. */
async function oneImage(call: ToolCall, link: string): Promise<ToolResult> {
  const [messageId = '', n = ''] = link.split('#');
  const message = await call.bridge.inbox.find(messageId);
  if (!message || message.agentId !== call.agent.agentId)
    throw new ToolError(`image "${link}": "${messageId}" is not one of your messages`, 'image');
  const ref: ImageRef | undefined = message.images?.[Number(n) - 1];
  if (!ref)
    throw new ToolError(
      `image "${link}": message ${messageId} has ${message.images?.length ?? 0} image(s); pass "${messageId}#1" to "${messageId}#${message.images?.length ?? 0}"`,
      'image',
    );
  const [content] = await call.bridge.images.readAll([ref]);
  if (!content) throw new ToolError(`image "${link}" (${ref.id}) is gone from the data dir`, 'image');
  return {
    structured: { message: messageId, image: Number(n), mimeType: ref.mimeType, bytes: ref.bytes },
    summary: `image ${n} of ${message.images?.length ?? 0} of message ${messageId} (${ref.mimeType}, ${ref.bytes} bytes).`,
    images: [content],
  };
}

/** What an image weighs in an answer: its bytes as base64. */
function base64Bytes(image: ImageRef): number {
  return Math.ceil(image.bytes / 3) * 4;
}

/** One line a message; a payload (a page event batch, an ask's outcome) follows it as one line of JSON. */
function lines(m: Message): string[] {
  return [
    `${m.id} ${clock(m.at)} ${m.kind} from ${m.from}${m.ref ? ` (re ${m.ref})` : ''}${m.text ? `: ${m.text}` : ''}`,
    ...(m.payload !== undefined && m.kind !== 'user_message' ? [`  payload: ${JSON.stringify(m.payload)}`] : []),
  ];
}

/** A message cut down so its lines and its JSON each fit one answer (text and payload share what is left). */
function fitted(message: Message): Message {
  const text = bytesOf(lines(message).join('\n'));
  const json = bytesOf(JSON.stringify(message));
  if (text <= ANSWER_BYTES && json <= ANSWER_BYTES) return message;
  // the head of the message (ids, kind, time, images) takes little: the rest goes to the text and the payload
  const room = ANSWER_BYTES - 4096;
  const cut = cutToFit({ text: message.text ?? null, payload: message.payload ?? null } as Json, room) as {
    text: string | null;
    payload: Json;
  };
  return {
    ...message,
    ...(message.text !== undefined ? { text: typeof cut.text === 'string' ? cut.text : '' } : {}),
    ...(message.payload !== undefined ? { payload: cut.payload } : {}),
  };
}
