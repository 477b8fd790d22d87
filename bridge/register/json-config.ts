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

/** The outcome of planning one edit: the new text, and the entry before and after (undefined = absent). */
export interface ConfigPlan {
  text: string;
  before?: unknown;
  after?: unknown;
}

/**
 * Sets (or, with entry undefined, removes) `<container>.<name>` in a JSON or JSONC config, keeping everything
 * else as it was: comments, key order, and the file's own indentation. Throws when the file is not JSON.
 */
export function planJson(text: string, container: string, name: string, entry: unknown): ConfigPlan {
  const source = text.trim() ? text : '{}\n';
  const errors: ParseError[] = [];
  const data: unknown = parse(source, errors, { allowTrailingComma: true });
  const first = errors[0];
  if (first) throw new Error(`not valid JSON (${printParseErrorCode(first.error)} at offset ${first.offset})`);
  if (!data || typeof data !== 'object' || Array.isArray(data)) throw new Error('the top level is not a JSON object');
  const holder = (data as Record<string, unknown>)[container];
  if (holder !== undefined && (typeof holder !== 'object' || holder === null || Array.isArray(holder))) {
    throw new Error(`"${container}" is not an object`);
  }
  const before = holder ? (holder as Record<string, unknown>)[name] : undefined;
  if (entry === undefined && before === undefined) return { text };
  let next: string;
  if (entry === undefined) {
    // removal without formatting takes out exactly the text of the entry (and its comma)
    next = applyEdits(source, modify(source, [container, name], undefined, {}));
    if (holder && Object.keys(holder).length === 1) next = applyEdits(next, modify(next, [container], undefined, {}));
  } else {
    next = setProperty(source, container, name, entry);
  }
  return { text: next, before, ...(entry !== undefined ? { after: entry } : {}) };
}

/**
 * Writes `<container>.<name>` as pretty JSON in the file's own indentation, touching no other text (the
 * library's formatter would reflow the siblings too).
 */
function setProperty(text: string, container: string, name: string, entry: unknown): string {
  const tree = parseTree(text, [], { allowTrailingComma: true });
  if (!tree) throw new Error('not valid JSON');
  const unit = detectIndent(text);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const existing = findNodeAtLocation(tree, [container, name]);
  if (existing) {
    const indent = lineIndent(text, existing.parent?.offset ?? existing.offset);
    return splice(text, existing.offset, existing.length, pretty(entry, indent, unit, eol));
  }
  const holder = findNodeAtLocation(tree, [container]);
  if (holder) return addProperty(text, holder, name, entry, unit, eol);
  return addProperty(text, tree, container, { [name]: entry }, unit, eol);
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
  return JSON.stringify(value, null, unit).replace(/\n/g, eol + indent);
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
