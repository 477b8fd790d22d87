/**
 * Long runs of similar siblings (table rows, list items, cards) cost an agent thousands of characters it rarely
 * reads. A run of RUN_MIN or more siblings with the same shape keeps its first KEEP and ends with one line that
 * counts the rest and names the ref to expand them with (page_snapshot {target}).
 */

export const RUN_MIN = 10;
export const KEEP = 3;

interface Lines {
  lines: string[];
  rich: boolean;
}

/** A sibling's shape: its lines without refs, with every quoted string, number and URL blanked. */
function shape(out: Lines): string {
  return out.lines
    .map((line) =>
      line
        .replace(/^(\s*)[a-z][\w.:-]*\d\s/, '$1')
        .replace(/"(?:[^"\\]|\\.)*"/g, '""')
        .replace(/→\S+/g, '→')
        .replace(/\d+/g, '0'),
    )
    .join('\n');
}

export function collapseRuns<T extends Lines>(outs: T[], holderRef: () => string): T[] | Array<T | Lines> {
  if (outs.length < RUN_MIN) return outs;
  const shapes = outs.map(shape);
  const kept: Array<T | Lines> = [];
  let start = 0;
  while (start < outs.length) {
    let end = start + 1;
    while (end < outs.length && shapes[end] === shapes[start]) end++;
    const run = outs.slice(start, end);
    // plain text (paragraphs of an article) is not a list of rows: it is never collapsed
    const isText = shapes[start]?.trimStart().startsWith('""') ?? true;
    if (run.length >= RUN_MIN && !isText) {
      kept.push(...run.slice(0, KEEP));
      const first = run[0]?.lines[0] ?? '';
      const indent = first.slice(0, first.length - first.trimStart().length);
      kept.push({
        lines: [`${indent}… ${run.length - KEEP} more like these (all: page_snapshot {"target":"${holderRef()}"})`],
        rich: false,
      });
    } else kept.push(...run);
    start = end;
  }
  return kept.length === outs.length ? outs : kept;
}
