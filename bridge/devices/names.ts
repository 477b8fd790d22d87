/**
 * Characters that change how text around them is read without showing themselves: C0 and C1 controls, bidi
 * embeddings, overrides, isolates and marks (which can reorder a card's text: "Ana's phone" written backwards),
 * zero-width spaces and joiners, the word joiner, soft hyphen and byte-order mark. (A single character class:
 * one pass, no backtracking.)
 */
const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/gu;

/**
 * A device's name as the desk shows it: spaces collapsed, and every invisible or reordering character written out
 * as `<U+202E>`, so the words on the approval card are the ones the device sent, in the order it sent them.
 */
export function visibleName(name: string): string {
  return name
    .replace(/\s+/g, ' ')
    .trim()
    .replace(INVISIBLE, (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`);
}
