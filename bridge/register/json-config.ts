import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';

/** The outcome of planning one edit: the new text, and the entry before and after (undefined = absent). */
export interface ConfigPlan {
  text: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Sets (or, with entry undefined, removes) `<container>.<name>` in a JSON or JSONC config, keeping everything
 * else as it was: comments, key order, and the file's own indentation. An entry that exists keeps its other keys
 * (a user's `env` …): only the keys in `owned` are written (set from `entry`, or taken out when `entry` lacks
 * them). Throws when the file is not JSON.
 */
export function planJson(
  text: string,
  container: string,
  name: string,
  entry: Record<string, unknown> | undefined,
  owned: readonly string[] = Object.keys(entry ?? {}),
): ConfigPlan {
  const source = text.trim() ? text : '{}\n';
  const errors: ParseError[] = [];
  const data: unknown = parse(source, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const before = source.slice(0, first.offset).split('\n');
    const where = `line ${before.length}, column ${(before[before.length - 1]?.length ?? 0) + 1}`;
    throw new Error(`not valid JSON (${printParseErrorCode(first.error)} at ${where}); fix or remove the file first`);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('the top level is not a JSON object');
  const holder = (data as Record<string, unknown>)[container];
  if (holder !== undefined && (typeof holder !== 'object' || holder === null || Array.isArray(holder))) {
    throw new Error(`"${container}" is not an object`);
  }
  const before = holder ? (holder as Record<string, unknown>)[name] : undefined;
  if (entry === undefined && before === undefined) return { text };
  if (entry === undefined) {
    // removal without formatting takes out exactly the text of the entry (and its comma)
    let next = applyEdits(source, modify(source, [container, name], undefined, {}));
    if (holder && Object.keys(holder).length === 1) next = applyEdits(next, modify(next, [container], undefined, {}));
    return { text: next, before };
  }
  if (!isObject(before)) {
    return { text: setAt(source, [container, name], entry), before, after: entry };
  }
  // merge: only the owned keys change, each edited in place
  let next = source;
  const after: Record<string, unknown> = { ...before };
  for (const key of owned) {
    if (key in entry) {
      if (isDeepStrictEqual(before[key], entry[key])) continue;
      next = setAt(next, [container, name, key], entry[key]);
      after[key] = entry[key];
    } else if (key in before) {
      next = applyEdits(next, modify(next, [container, name, key], undefined, {}));
      delete after[key];
    }
  }
  return next === source ? { text } : { text: next, before, after };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Writes the value at `path` as pretty JSON in the file's own indentation, touching no other text (the library's
 * formatter would reflow the siblings too); missing objects on the way are created.
 */
function setAt(text: string, path: string[], value: unknown): string {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (!tree) throw new Error('not valid JSON');
  // a file written on one line (VS Code writes profiles' mcp.json so) stays on one line
  const oneLine = !text.trim().includes('\n');
  const unit = oneLine ? '' : detectIndent(text);
  const eol = oneLine ? '' : text.includes('\r\n') ? '\r\n' : '\n';
  const existing = findNodeAtLocation(tree, path);
  if (existing) {
    const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
    return splice(text, existing.offset, existing.length, pretty(value, indent, unit, eol));
  }
  const key = path[path.length - 1] ?? '';
  const parentPath = path.slice(0, -1);
  const holder = parentPath.length ? findNodeAtLocation(tree, parentPath) : tree;
  if (holder) return addProperty(text, holder, key, value, unit, eol);
  return setAt(text, parentPath, { [key]: value });
}

function addProperty(text: string, object: Node, key: string, value: unknown, unit: string, eol: string): string {
  const last = object.children?.[object.children.length - 1];
  if (last) {
    const indent = lineIndent(text, last.offset);
    const insert = `,${eol}${indent}${JSON.stringify(key)}: ${pretty(value, indent, unit, eol)}`;
    return splice(text, last.offset + last.length, 0, insert);
  }
  const outer = lineIndent(text, object.offset);
  const inner = outer + unit;
  const body = `{${eol}${inner}${JSON.stringify(key)}: ${pretty(value, inner, unit, eol)}${eol}${outer}}`;
  return splice(text, object.offset, object.length, body);
}

function pretty(value: unknown, indent: string, unit: string, eol: string): string {
  return unit ? JSON.stringify(value, null, unit).replace(/\n/g, eol + indent) : JSON.stringify(value);
}

/** The leading whitespace of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))?.[0] ?? '';
}

function splice(text: string, offset: number, length: number, insert: string): string {
  return text.slice(0, offset) + insert + text.slice(offset + length);
}

function detectIndent(text: string): string {
  const match = /^([ \t]+)\S/m.exec(text);
  return match?.[1]?.startsWith('\t') ? '\t' : (match?.[1] ?? '  ');
}
