import * as z from 'zod';
import { closest } from './closest.js';

export { closest };

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
