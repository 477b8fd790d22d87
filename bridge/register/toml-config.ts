import { isDeepStrictEqual } from 'node:util';
import { parse } from 'smol-toml';
import type { ConfigPlan } from './json-config.js';

type TomlEntry = Record<string, string | string[]>;

/**
 * Sets (or, with entry undefined, removes) the `[<container>.<name>]` table of a TOML config (Codex), editing
 * the text so the rest of the file, comments included, stays as it was. An existing table keeps its other keys and
 * its sub-tables (`[mcp_servers.aiti.env]` …): only the keys in `owned` are written (set from `entry`, or taken
 * out when `entry` lacks them). Removal takes the table and its sub-tables out. Throws when the file is not TOML,
 * or when the entry is written in a form other than its own table (left for a person to edit).
 */
export function planToml(
  text: string,
  container: string,
  name: string,
  entry: TomlEntry | undefined,
  owned: readonly string[] = Object.keys(entry ?? {}),
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
  const firstSub = lines.findIndex((line) => line.trim().startsWith(`[${container}.${name}.`));
  if (before !== undefined && start === -1 && firstSub === -1) {
    throw new Error(`${container}.${name} is written in a form this tool does not edit; change it by hand`);
  }
  if (entry === undefined) return { text: removeTable(lines, start, container, name), before };
  const body = Object.entries(entry).map(([key, value]) => `${key} = ${tomlValue(value)}`);
  if (start === -1) {
    if (firstSub !== -1) {
      // only sub-tables so far: the table goes just before them
      const next = [...lines.slice(0, firstSub), header, ...body, '', ...lines.slice(firstSub)].join('\n');
      return { text: next, before, after: { ...(before as object), ...entry } };
    }
    let next = text;
    if (next && !next.endsWith('\n')) next += '\n';
    const block = [header, ...body].join('\n') + '\n';
    return { text: next.trim() ? `${next}\n${block}` : block, before, after: entry };
  }
  // merge into the table's own lines (up to the next table header of any kind, sub-tables included)
  let end = start + 1;
  while (end < lines.length && !(lines[end] ?? '').trim().startsWith('[')) end++;
  const own = lines.slice(start + 1, end);
  const current = (before ?? {}) as Record<string, unknown>;
  const after: Record<string, unknown> = { ...current };
  let changed = false;
  let kept = own;
  for (const key of owned) {
    const wanted = entry[key];
    if (wanted !== undefined && isDeepStrictEqual(current[key], wanted)) continue;
    if (wanted === undefined && !(key in current)) continue;
    changed = true;
    const at = kept.findIndex((line) => keyOf(line) === key);
    const replacement = wanted === undefined ? [] : [`${key} = ${tomlValue(wanted)}`];
    if (at === -1) {
      // new keys go after the table's last key line, before trailing blank lines and comments
      let insert = kept.length;
      while (insert > 0 && /^\s*(#.*)?$/.test(kept[insert - 1] ?? '')) insert--;
      kept = [...kept.slice(0, insert), ...replacement, ...kept.slice(insert)];
    } else {
      kept = [...kept.slice(0, at), ...replacement, ...kept.slice(at + valueLines(kept, at))];
    }
    if (wanted === undefined) delete after[key];
    else after[key] = wanted;
  }
  if (!changed) return { text };
  const next = [...lines.slice(0, start + 1), ...kept, ...lines.slice(end)].join('\n');
  return { text: next, before, after };
}

/** Takes out `[container.name]` and its sub-tables, with the blank line register put before the table. */
function removeTable(lines: string[], start: number, container: string, name: string): string {
  const inEntry = (line: string) => {
    const trimmed = line.trim();
    return trimmed === `[${container}.${name}]` || trimmed.startsWith(`[${container}.${name}.`);
  };
  const kept: string[] = [];
  let skipping = false;
  // blank lines and comments met while skipping: they belong to the next table when one follows at once
  let pending: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim().startsWith('[')) {
      const was = skipping;
      skipping = inEntry(line);
      if (was && !skipping) kept.push(...pending);
      pending = [];
    }
    if (skipping) {
      if (i === start && kept.length && kept[kept.length - 1]?.trim() === '') kept.pop();
      if (/^\s*(#.*)?$/.test(line) && i !== start) pending.push(line);
      else pending = [];
      continue;
    }
    kept.push(line);
  }
  if (pending.length && pending[pending.length - 1] === '') kept.push('');
  // blank lines and comments just before a following table belong to it, so they stay; no double blank lines
  while (kept.length > 1 && kept[kept.length - 1] === '' && kept[kept.length - 2] === '') kept.pop();
  return kept.join('\n');
}

/** The bare key a `key = value` line sets, if any. */
function keyOf(line: string): string | undefined {
  return /^\s*([A-Za-z0-9_-]+)\s*=/.exec(line)?.[1];
}

/** How many lines the value starting at `at` spans (a multi-line array ends at its closing bracket). */
function valueLines(lines: string[], at: number): number {
  const first = lines[at] ?? '';
  const value = first.slice(first.indexOf('=') + 1).trim();
  if (!value.startsWith('[')) return 1;
  let depth = 0;
  for (let i = at; i < lines.length; i++) {
    const text = i === at ? value : (lines[i] ?? '');
    for (const ch of text.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '')) {
      if (ch === '[') depth++;
      else if (ch === ']') depth--;
    }
    if (depth <= 0) return i - at + 1;
  }
  return lines.length - at;
}

function tomlValue(value: string | string[]): string {
  // TOML basic strings share JSON's escapes for everything JSON.stringify emits
  return Array.isArray(value) ? `[${value.map((v) => JSON.stringify(v)).join(', ')}]` : JSON.stringify(value);
}
