import type { Json } from '../../protocol/common.js';
import { RESULT_CHAR_LIMIT, TRUNCATED_MARK } from '../../protocol/commands.js';

/**
 * Keeps a result under RESULT_CHAR_LIMIT JSON characters by cutting its largest string or array, marking each
 * cut with TRUNCATED_MARK, so the shape stays what the agent expects.
 */
export function capResult(value: Json, limit = RESULT_CHAR_LIMIT): Json {
  let size = JSON.stringify(value).length;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, the loop leaves a result that fits as it is; this spares the clone
  if (size <= limit) return value;
  let result = structuredClone(value);
  for (let round = 0; round < 40 && size > limit; round++) {
    const largest = findLargest(result);
    if (!largest) break;
    const excess = size - limit + TRUNCATED_MARK.length + 64;
    if (typeof largest.value === 'string') {
      const keep = Math.max(0, largest.value.length - excess);
      largest.set(largest.value.slice(0, keep) + TRUNCATED_MARK);
    } else {
      const items = largest.value;
      largest.set([...items.slice(0, Math.floor(items.length / 2)), TRUNCATED_MARK]);
    }
    // every slot has a root; a new one only when the result itself was cut, and no command answers a bare list or text
    // Stryker disable next-line ConditionalExpression: equivalent, see above
    if (largest.root) result = largest.root();
    size = JSON.stringify(result).length;
  }
  if (size > limit) return JSON.stringify(result).slice(0, limit - TRUNCATED_MARK.length) + TRUNCATED_MARK;
  return result;
}

interface Slot {
  value: string | Json[];
  size: number;
  set(next: Json): void;
  root?: () => Json;
}

function findLargest(root: Json): Slot | undefined {
  let best: Slot | undefined;
  let current: Json = root;
  const consider = (value: Json, set: (next: Json) => void) => {
    if (typeof value !== 'string' && !Array.isArray(value)) return;
    const size = JSON.stringify(value).length;
    if (size <= (best?.size ?? 256)) return;
    // a list whose first half holds nearly all of it (one big item, a form beside a small one): halving it cuts
    // nothing, so what is cut is inside that item
    if (Array.isArray(value) && JSON.stringify(value.slice(0, Math.floor(value.length / 2))).length > size * 0.9)
      return;
    best = { value, size, set };
  };
  const visit = (value: Json) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        consider(item, (next) => (value[i] = next));
        visit(item);
      });
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        consider(item, (next) => (value[key] = next));
        visit(item);
      }
    }
  };
  // Stryker disable next-line ArrowFunction: equivalent, every command answers an object (protocol/commands.ts), never the part cut
  consider(root, (next) => (current = next));
  visit(root);
  // Stryker disable next-line ConditionalExpression: equivalent, without a root the result is the object it was, as above
  if (best) best.root = () => current;
  return best;
}
