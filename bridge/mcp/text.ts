/**
 * Tool results as a model reads them: plain lines, not JSON. An agent pays for every character it reads, and JSON
 * text escapes every quote and newline of an outline; structuredContent keeps the exact JSON for programs.
 */

type Plain = string | number | boolean | null | undefined | Plain[] | { [key: string]: Plain };

/** A scalar as it reads in a line: strings bare when that is unambiguous, quoted when not. */
export function scalar(value: Plain): string {
  if (value === null || value === undefined) return '-';
  if (typeof value !== 'string') return typeof value === 'object' ? JSON.stringify(value) : String(value);
  return value === '' || /^\s|\s$|[\n\r\t]/.test(value) ? JSON.stringify(value) : value;
}

function isFlat(value: Plain): boolean {
  return value === null || typeof value !== 'object';
}

/** An object whose values are all scalars (or lists of scalars), written on one line: `a: 1, b: x`. */
function flatLine(value: { [key: string]: Plain }): string | undefined {
  const parts: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    if (Array.isArray(item) && item.every(isFlat)) parts.push(`${key}: [${item.map(scalar).join(', ')}]`);
    else if (isFlat(item)) parts.push(`${key}: ${scalar(item)}`);
    else return undefined;
  }
  return parts.join(', ');
}

/**
 * Any JSON value as indented `key: value` lines (YAML-like, without its quoting rules): nested objects indent,
 * lists of scalars stay on one line, list items of flat objects take one line each.
 */
export function plainLines(value: Plain, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  if (isFlat(value)) return [pad + scalar(value)];
  if (Array.isArray(value)) {
    if (!value.length) return [pad + '(none)'];
    return value.flatMap((item) => {
      if (isFlat(item)) return [`${pad}- ${scalar(item)}`];
      const flat = !Array.isArray(item) && typeof item === 'object' && item ? flatLine(item) : undefined;
      if (flat !== undefined) return [`${pad}- ${flat}`];
      const [first = '', ...rest] = plainLines(item, depth + 1);
      return [`${pad}- ${first.trimStart()}`, ...rest];
    });
  }
  const lines: string[] = [];
  for (const [key, item] of Object.entries(value as { [key: string]: Plain })) {
    if (item === undefined) continue;
    if (isFlat(item)) lines.push(...multiline(`${pad}${key}: `, item, depth));
    else if (Array.isArray(item) && item.every(isFlat)) {
      lines.push(`${pad}${key}: ${item.length ? item.map(scalar).join(', ') : '(none)'}`);
    } else {
      lines.push(`${pad}${key}:`, ...plainLines(item, depth + 1));
    }
  }
  return lines;
}

/** A string of several lines goes under its key, indented, instead of as one escaped line. */
function multiline(head: string, value: Plain, depth: number): string[] {
  if (typeof value === 'string' && value.includes('\n') && value.length > 0) {
    const pad = '  '.repeat(depth + 1);
    return [head.trimEnd(), ...value.split('\n').map((line) => pad + line)];
  }
  return [head + scalar(value)];
}

/** The plain text of a structured result. */
export function plainText(value: Record<string, unknown>): string {
  return plainLines(value as Plain).join('\n');
}

/** `12:03:04.123` from an ISO time: the date is the same for nearly every line an agent reads. */
export function clock(iso: string): string {
  return iso.length >= 23 ? iso.slice(11, 23) : iso;
}

/** One console entry a line (its stack indented under it). */
export function logLine(entry: { level: string; text: string; stack?: string; at: string }): string[] {
  const head = `${clock(entry.at)} ${entry.level} ${entry.text.replace(/\n/g, '\n    ')}`;
  return entry.stack ? [head, ...entry.stack.split('\n').map((line) => `    ${line.trim()}`)] : [head];
}

/** One request a line: `12:03:04.123 POST /api/profile → 200 fetch 12 ms, 35 B up, 16 B down`. */
export function networkLine(entry: {
  method: string;
  url: string;
  status: number;
  durationMs: number;
  type: string;
  requestSize?: number;
  responseSize?: number;
  error?: string;
  at: string;
}): string {
  const sizes = [
    entry.requestSize !== undefined ? `${entry.requestSize} B up` : '',
    entry.responseSize !== undefined ? `${entry.responseSize} B down` : '',
  ].filter(Boolean);
  const error = entry.error ? ` error: ${entry.error}` : '';
  return `${clock(entry.at)} ${entry.method} ${entry.url} → ${entry.status} ${entry.type} ${Math.round(entry.durationMs)} ms${sizes.length ? `, ${sizes.join(', ')}` : ''}${error}`;
}
