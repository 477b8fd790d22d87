import * as z from 'zod';

/**
 * Arguments objects (tool inputs, page command args) are strict: a key the schema does not know is an error that
 * names it, suggests the closest known key and lists the known ones — `pageid` silently ignored would snapshot the
 * default page instead of the one meant.
 */
export function strictArgs<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, { error: unknownKeysMessage });
}

/** The message for an `unrecognized_keys` issue (others keep zod's message). Reads the keys of the schema that
 * raised it, so a schema derived with `.extend()` or `.omit()` lists its own keys. */
function unknownKeysMessage(issue: z.core.$ZodRawIssue): string | undefined {
  if (issue.code !== 'unrecognized_keys') return undefined;
  const def = issue.inst?._zod.def;
  const known = def && 'shape' in def && def.shape && typeof def.shape === 'object' ? Object.keys(def.shape) : [];
  return unknownKeys(issue.keys, known);
}

/** `unknown argument "pageid"; did you mean "pageId"? known: pageId, frameId` */
export function unknownKeys(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((key) => {
    const near = closest(key, known);
    return `"${key}"${near ? ` (did you mean "${near}"?)` : ''}`;
  });
  const list = `known: ${known.length ? known.join(', ') : 'none (this takes no arguments)'}`;
  const [only] = keys;
  if (keys.length === 1 && only !== undefined) {
    const near = closest(only, known);
    return `unknown argument "${only}"; ${near ? `did you mean "${near}"? ` : ''}${list}`;
  }
  return `unknown arguments ${named.join(', ')}; ${list}`;
}

/** The known name a typo most likely meant: the same name in another case, else one within a few edits. */
export function closest(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase) return sameCase;
  const allowed = Math.max(1, Math.floor(name.length / 3));
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(lower, key.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { key, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
