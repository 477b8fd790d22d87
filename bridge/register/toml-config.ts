import { parse } from 'smol-toml';
import type { ConfigPlan } from './json-config.js';

/**
 * Sets (or, with entry undefined, removes) the `[<container>.<name>]` table of a TOML config (Codex), editing
 * the text so the rest of the file, comments included, stays as it was. Throws when the file is not TOML, or
 * when the entry is written in a form other than its own table (left for a person to edit).
 */
export function planToml(
  text: string,
  container: string,
  name: string,
  entry: Record<string, string | string[]> | undefined,
): ConfigPlan {
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`not valid TOML (${(error as Error).message.split('\n')[0]})`);
  }
  const servers = data[container];
  const before = servers && typeof servers === 'object' ? (servers as Record<string, unknown>)[name] : undefined;
  if (entry === undefined && before === undefined) return { text };
  const header = `[${container}.${name}]`;
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === header);
  if (before !== undefined && start === -1) {
    throw new Error(`${container}.${name} is written in a form this tool does not edit; change it by hand`);
  }
  let kept = lines;
  if (start !== -1) {
    let end = start + 1;
    while (end < lines.length && !isOtherTable(lines[end] ?? '', container, name)) end++;
    // blank lines and comments just before the next table belong to it
    while (end - 1 > start && /^\s*(#.*)?$/.test(lines[end - 1] ?? '')) end--;
    // the blank line register put before the table goes with it
    const from = start > 0 && lines[start - 1]?.trim() === '' ? start - 1 : start;
    kept = [...lines.slice(0, from), ...lines.slice(end)];
    while (kept.length > 1 && kept[kept.length - 1] === '' && kept[kept.length - 2] === '') kept.pop();
  }
  let next = kept.join('\n');
  if (entry !== undefined) {
    const body = Object.entries(entry).map(([key, value]) => `${key} = ${tomlValue(value)}`);
    const block = [header, ...body].join('\n') + '\n';
    if (next && !next.endsWith('\n')) next += '\n';
    next = next.trim() ? `${next}\n${block}` : block;
  }
  return { text: next, before, ...(entry !== undefined ? { after: entry } : {}) };
}

function isOtherTable(line: string, container: string, name: string): boolean {
  const trimmed = line.trim();
  if (!trimmed.startsWith('[')) return false;
  return !trimmed.startsWith(`[${container}.${name}.`);
}

function tomlValue(value: string | string[]): string {
  // TOML basic strings share JSON's escapes for everything JSON.stringify emits
  return Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value);
}
