import type { Json } from '../../protocol/index.js';

/**
 * What one answer of aiti_inbox, page_logs and page_network may hold: its text (the lines a model reads) and its
 * structuredContent (the JSON programs and some clients read) are each at most ANSWER_BYTES of UTF-8, and
 * aiti_inbox's images at most IMAGE_BYTES of base64 — one full-size image (3 MiB, 4 MiB as base64) always fits,
 * and the whole answer stays under the 8 MiB an SSE stream may hold unread (limits.ts sseBufferBytes). What does
 * not fit waits for the next call, and the answer says how much is left and how to ask for it.
 */
export const ANSWER_BYTES = 256 * 1024;
export const IMAGE_BYTES = 6 * 1024 * 1024;

export function bytesOf(text: string): number {
  return Buffer.byteLength(text);
}

/** Two counters (the text, the structured JSON) that a page fills item by item. */
export class AnswerBudget {
  text = 0;
  json = 0;

  constructor(readonly bytes = ANSWER_BYTES) {}

  /** Whether an item of this size fits beside what is taken; the first item of a page always does. */
  fits(text: number, json: number, first: boolean): boolean {
    return first || (this.text + text <= this.bytes && this.json + json <= this.bytes);
  }

  take(text: number, json: number): void {
    this.text += text;
    this.json += json;
  }
}

/**
 * The newest entries (the list is oldest first) whose lines and JSON fit one answer, oldest first. When some older
 * ones are left out for size, `older` is the time to pass as `before` for them: the page ends at a new millisecond
 * (entries of one instant come together), unless one instant alone fills a page.
 */
export function newestThatFit<T extends { at: string }>(
  list: readonly T[],
  text: (entry: T) => string,
): { entries: T[]; older?: string } {
  const budget = new AnswerBudget();
  let start = list.length;
  while (start > 0) {
    const entry = list[start - 1] as T;
    const t = bytesOf(text(entry)) + 1;
    const j = bytesOf(JSON.stringify(entry)) + 1;
    if (!budget.fits(t, j, start === list.length)) break;
    budget.take(t, j);
    start--;
  }
  if (start === 0) return { entries: [...list] };
  // an instant is not split between pages: `before` would skip the part left out
  let from = start;
  const split = list[start]?.at;
  if (list[start - 1]?.at === split) {
    let next = start;
    while (next < list.length && list[next]?.at === split) next++;
    // (one instant alone filling a page is kept: the rest of that instant cannot be asked for by time)
    if (next < list.length) from = next;
  }
  return { entries: list.slice(from), older: list[from]?.at ?? '' };
}

const CUT = '…[cut: too big for one answer]';

/**
 * A JSON value cut down to at most `bytes` as JSON: its longest string or array is halved, again and again, each
 * cut marked; for the rare item that alone is larger than an answer (a message pushed with
 * 100,000 characters of escapes, a page event batch of long stacks).
 */
export function cutToFit(value: Json, bytes: number): Json {
  let size = bytesOf(JSON.stringify(value));
  if (size <= bytes) return value;
  let cut = structuredClone(value);
  for (let round = 0; round < 64 && size > bytes; round++) {
    const largest = findLargest({ root: cut });
    if (!largest) break;
    const half = Math.floor(largest.value.length / 2);
    if (typeof largest.value === 'string') largest.set(largest.value.slice(0, half) + CUT);
    else largest.set([...largest.value.slice(0, half), CUT]);
    cut = largest.root();
    size = bytesOf(JSON.stringify(cut));
  }
  return size <= bytes ? cut : CUT;
}

interface Slot {
  value: string | Json[];
  size: number;
  set(next: Json): void;
  root(): Json;
}

/** The longest string or array anywhere in `holder.root`, with a way to replace it. */
function findLargest(holder: { root: Json }): Slot | undefined {
  let best: Slot | undefined;
  const visit = (value: Json, set: (next: Json) => void) => {
    if (typeof value === 'string' || Array.isArray(value)) {
      const size = typeof value === 'string' ? value.length : JSON.stringify(value).length;
      if (!best || size > best.size) best = { value, size, set, root: () => holder.root };
    }
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, (next) => (value[i] = next)));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value)) visit(item, (next) => (value[key] = next));
  };
  visit(holder.root, (next) => (holder.root = next));
  return best;
}
