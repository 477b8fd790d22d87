import type { Json } from '../protocol/index.js';
import { ANSWER_BYTES, IMAGE_BYTES, bytesOf, cutToFit } from './tools/budget.js';
import { plainText } from './text.js';
import type { ToolDefinition, ToolResult } from './tool.js';

/**
 * Every tool answer keeps to the budget aiti_inbox, page_logs and page_network page by (tools/budget.ts): at most
 * ANSWER_BYTES of text, ANSWER_BYTES of structured JSON (to a client that asked for it) and IMAGE_BYTES of images.
 * Those three never need this; for the rest it is the bridge's own bound on what a page sends. The page agent cuts
 * a result at RESULT_CHAR_LIMIT characters, but characters are not bytes (a Chinese page's DOM.getHTML is over
 * 400 KiB at that cut), and a page that does not run our agent answers with whatever it likes, up to the 16 MiB a
 * result body may be. What is over is cut, and the answer says how much there was and how to ask for less — one
 * answer never holds the megabytes that would stall the client, or its SSE stream (limits.ts sseBufferBytes).
 */
export function capAnswer(
  result: ToolResult,
  tool: Pick<ToolDefinition, 'name' | 'narrower'>,
  sendsStructured: boolean,
): ToolResult {
  const narrower = tool.narrower ?? 'ask for less';
  const notes: string[] = [];
  const body = result.text ?? plainText(result.structured);
  const textBytes = bytesOf(body) + bytesOf(result.summary ?? '');
  // the JSON is weighed only for a client that receives it (one that asked for structuredContent)
  const structuredBytes = sendsStructured ? bytesOf(JSON.stringify(result.structured)) : 0;
  let capped = result;
  if (textBytes > ANSWER_BYTES || structuredBytes > ANSWER_BYTES) {
    const note = `[cut: this answer had ${kib(Math.max(textBytes, structuredBytes))} KiB; one answer holds ${kib(ANSWER_BYTES)} KiB: ${narrower}]`;
    notes.push(note);
    capped = {
      ...capped,
      text: cutText(body, ANSWER_BYTES - bytesOf(result.summary ?? '') - 1024),
      structured: {
        ...(cutToFit(result.structured as Json, ANSWER_BYTES - 1024) as Record<string, unknown>),
        cut: note,
      },
    };
  }
  if (result.images?.length) {
    let taken = 0;
    const images = result.images.filter((image) => {
      if (taken + image.data.length > IMAGE_BYTES) {
        notes.push(
          `[an image of ${kib(image.data.length)} KiB as base64 left out: one answer holds ${kib(IMAGE_BYTES)} KiB of images; ${narrower}]`,
        );
        return false;
      }
      taken += image.data.length;
      return true;
    });
    if (images.length < result.images.length) capped = { ...capped, images };
  }
  // the body is written out once, here: the dispatcher sends `text`
  if (!notes.length) return result.text === undefined ? { ...result, text: body } : result;
  return { ...capped, text: [capped.text ?? body, ...notes].join('\n') };
}

/** The text's first `bytes` (a whole line when it can), marked where it was cut. */
function cutText(text: string, bytes: number): string {
  if (bytesOf(text) <= bytes) return text;
  let cut = Buffer.from(text).subarray(0, bytes).toString('utf8');
  // a character split by the byte cut decodes as U+FFFD: drop it
  cut = cut.replace(/\uFFFD$/, '');
  const line = cut.lastIndexOf('\n');
  if (line > bytes / 2) cut = cut.slice(0, line);
  return `${cut}\n…`;
}

function kib(bytes: number): number {
  return Math.ceil(bytes / 1024);
}
