import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, release } from 'node:os';

/** One measured number, with its target when the issue sets one. */
export interface BenchRow {
  group: string;
  name: string;
  value: number;
  unit: string;
  /** e.g. "< 300 ms" */
  target?: string;
  met?: boolean;
  note?: string;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

function chromiumVersion(): string {
  try {
    return execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'not found';
  }
}

export function machine(): Record<string, string> {
  const cpu = cpus();
  return {
    cpu: `${cpu[0]?.model ?? 'unknown'} × ${cpu.length}`,
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    os: `${process.platform} ${release()}`,
    node: process.version,
    chromium: chromiumVersion(),
    date: new Date().toISOString(),
  };
}

/**
 * A run of some sections only (`npm run bench shim`) keeps the other rows of the last report: each new row takes
 * the place of the old row of the same name, or goes after the last row of its group.
 */
export function mergeRows(previous: BenchRow[], fresh: BenchRow[]): BenchRow[] {
  const merged = [...previous];
  for (const row of fresh) {
    const same = merged.findIndex((r) => r.name === row.name);
    if (same !== -1) {
      merged[same] = row;
      continue;
    }
    const lastOfGroup = merged.map((r) => r.group).lastIndexOf(row.group);
    merged.splice(lastOfGroup === -1 ? merged.length : lastOfGroup + 1, 0, row);
  }
  return merged;
}

function previousRows(): BenchRow[] {
  try {
    return (JSON.parse(readFileSync('docs/performance.json', 'utf8')) as { rows?: BenchRow[] }).rows ?? [];
  } catch {
    return [];
  }
}

/** The notes of the last report (docs/PERFORMANCE.md), but the line a partial run adds. */
function previousNotes(): string[] {
  let text = '';
  try {
    text = readFileSync('docs/PERFORMANCE.md', 'utf8');
  } catch {
    return [];
  }
  const section = (text.split('\n## Notes\n')[1] ?? '').split('\n## Held-out set')[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('- ') && !line.startsWith('- this report merges'))
    .map((line) => line.slice(2));
}

/**
 * The hand-kept record of the held-out set (its first run, written before anything was fixed, and what was fixed
 * after): kept as it is by every run of the bench.
 */
function heldOutRecord(): string[] {
  try {
    const text = readFileSync('docs/PERFORMANCE.md', 'utf8');
    const at = text.indexOf('\n## Held-out set');
    return at < 0
      ? []
      : text
          .slice(at + 1)
          .trimEnd()
          .split('\n')
          .concat('');
  } catch {
    return [];
  }
}

/** Writes docs/performance.json and the Markdown table in docs/PERFORMANCE.md (`partial`: keep the other rows). */
export function writeReport(measured: BenchRow[], notes: string[], partial = false): void {
  mkdirSync('docs', { recursive: true });
  const env = machine();
  const rows = partial ? mergeRows(previousRows(), measured) : measured;
  if (partial) {
    notes.unshift(...previousNotes());
    notes.push(
      `this report merges a run of some sections (${env.date}) into the previous full run: the machine lines describe the last run, and only its rows were measured then.`,
    );
  }
  writeFileSync('docs/performance.json', JSON.stringify({ machine: env, rows }, null, 2) + '\n');
  const lines = [
    '# Performance',
    '',
    'Written by `npm run bench` (not part of `npm test`). Every number below was measured in one run on this machine:',
    '',
    ...Object.entries(env).map(([k, v]) => `- ${k}: ${v}`),
    '',
    '| group | measure | value | target | met |',
    '|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.group} | ${r.name}${r.note ? ` — ${r.note}` : ''} | ${r.value} ${r.unit} | ${r.target ?? ''} | ${r.met === undefined ? '' : r.met ? 'yes' : '**no**'} |`,
    ),
    '',
    // a partial run brings the previous notes: a note it writes again is listed once
    ...(notes.length ? ['## Notes', '', ...[...new Set(notes)].map((n) => `- ${n}`), ''] : []),
    ...heldOutRecord(),
  ];
  writeFileSync('docs/PERFORMANCE.md', lines.join('\n'));
}
