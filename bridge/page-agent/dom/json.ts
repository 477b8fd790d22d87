import { isA } from './realm.js';
import type { Json } from '../../protocol/common.js';

/**
 * Any value from the page as JSON an agent can read: DOM nodes described, errors with stack, functions by
 * source, cycles marked, depth and breadth bounded.
 */
export function toJson(value: unknown, depth = 0, seen = new WeakSet<object>()): Json {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name || 'anonymous'}]`;
  }
  const obj = value as object;
  if (isA(obj, Element)) return describeElement(obj);
  if (isA(obj, Node)) return `[${obj.nodeName}]`;
  if (obj instanceof Error) return { name: obj.name, message: obj.message, ...(obj.stack ? { stack: obj.stack } : {}) };
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof RegExp) return obj.toString();
  if (obj === window) return '[Window]';
  if (seen.has(obj)) return '[circular]';
  if (depth >= 8) return '[…]';
  seen.add(obj);
  try {
    if (obj instanceof Map) return toJson(Object.fromEntries([...obj.entries()].slice(0, 200)), depth + 1, seen);
    if (obj instanceof Set || Array.isArray(obj) || obj instanceof NodeList || obj instanceof HTMLCollection) {
      const items = [...(obj as Iterable<unknown>)];
      const out = items.slice(0, 500).map((item) => toJson(item, depth + 1, seen));
      if (items.length > 500) out.push(`…${items.length - 500} more`);
      return out;
    }
    const out: Record<string, Json> = {};
    let count = 0;
    for (const key of Object.keys(obj)) {
      if (++count > 200) {
        out['…'] = 'more keys';
        break;
      }
      try {
        out[key] = toJson((obj as Record<string, unknown>)[key], depth + 1, seen);
      } catch (error) {
        out[key] = `[throws: ${(error as Error).message}]`;
      }
    }
    return out;
  } finally {
    seen.delete(obj);
  }
}

export function describeElement(el: Element): string {
  const id = el.id ? `#${el.id}` : '';
  const cls =
    typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
  return `<${el.localName}${id}${cls}>`;
}
