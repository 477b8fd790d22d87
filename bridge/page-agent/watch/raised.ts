import type { Raised } from '../../protocol/snapshot.js';
import { departure } from './departure.js';
import { settled } from '../dom/settle.js';
import { mapToSource } from './sourcemap.js';
import { local, mapStack } from './stacks.js';

/**
 * What an action raised: the uncaught errors, unhandled rejections and console.error calls that happen while an
 * agent's action runs and for a short settle after it (a click handler that throws, a fetch that rejects a
 * moment later). They go in that action's own result, each with the line written where it is known, so the
 * agent reads "your click threw" where it reads the click's outcome — not in a log it has to think to check.
 */
export type { Raised };

interface Pending {
  kind: Raised['kind'];
  message: string;
  at: Promise<string | undefined>;
}

const captures = new Set<Pending[]>();

// a frame's location starts a word (after a space, "(" or Firefox's "@"): tried there only, so a line of slashes or
// URLs is read in one pass, not once per character
const FRAME = /(?<![^\s(@])((?:https?|file):\/\/[^\s()]+?):(\d+):(\d+)|(?<![^\s(@])(\/[^\s():]+):(\d+):(\d+)/;

/** The first frame of a mapped stack that is app code (not a dependency, not the agent): `file:line:column`. */
function firstAppFrame(stack: string): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    if (/node_modules|\/@vite\/|\/aiti\/page\.js|chunk-|\/deps\//.test(line)) continue;
    const match = FRAME.exec(line);
    if (match) return match[0];
  }
  return undefined;
}

async function where(stack: string | undefined, source: string | undefined, root: string | undefined) {
  if (stack) {
    const mapped = await mapStack(stack, root).catch(() => stack);
    const frame = firstAppFrame(mapped);
    if (frame) return frame;
  }
  const match = source ? /^(.*):(\d+):(\d+)$/.exec(source) : null;
  if (match?.[1]) {
    const mapped = await mapToSource(match[1], Number(match[2]), Number(match[3])).catch(() => undefined);
    if (mapped) return `${local(mapped.file, root)}:${mapped.line}:${mapped.column}`;
  }
  return source;
}

/** Called by the error and console watchers as each one happens, whatever action is running. */
export function noteRaised(
  kind: Raised['kind'],
  message: string,
  stack: string | undefined,
  source: string | undefined,
  root: string | undefined,
): void {
  if (!captures.size) return;
  const pending: Pending = { kind, message: message.slice(0, 2000), at: where(stack, source, root) };
  for (const capture of captures) if (capture.length < 10) capture.push(pending);
}

/** The settle after an action: until the page has been quiet this long, at most SETTLE_MS. */
const QUIET_MS = 60;
const SETTLE_MS = 300;
/** Mapping a stack fetches source maps: a slow map must not hold the action's result for long. */
const MAP_MS = 1500;

/**
 * Runs an action and returns its value with what it raised, waiting a short settle after it (errors of the
 * re-render and of promises the handler started) and then, briefly, for their lines to be mapped.
 */
export async function watchAction<T>(run: () => Promise<T>): Promise<{ value: T; raised: Raised[] }> {
  const capture: Pending[] = [];
  captures.add(capture);
  try {
    const value = await run();
    // a click that leaves the page (now, or from a timer during the settle) answers before the document goes
    const leaving = departure();
    await Promise.race([leaving.promise, settled(SETTLE_MS, QUIET_MS)]);
    leaving.cancel();
    captures.delete(capture);
    const timeout = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), MAP_MS));
    const raised = await Promise.all(
      capture.map(async ({ kind, message, at }) => {
        const line = await Promise.race([at, timeout]);
        return { kind, message, ...(line ? { at: line } : {}) };
      }),
    );
    return { value, raised };
  } finally {
    captures.delete(capture);
  }
}
