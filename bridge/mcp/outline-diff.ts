/**
 * The change between two snapshot outlines, written for a model: lines added (`+`), removed (`-`) and changed
 * (`~`, the same ref with new text), each run under the line it sits in, cut at a size. An agent that acted on a
 * page reads this instead of a whole new snapshot.
 */

export interface OutlineChange {
  added: string[];
  removed: string[];
  /** lines whose ref stayed while their text changed, as they read now */
  changed: string[];
}

type Op = { kind: '=' | '+' | '-' | '~'; line: string; at: number };

/** Past this many cells the middle of the two outlines is reported as replaced instead of diffed line by line. */
const MAX_CELLS = 4_000_000;

/** The ref a line starts with (`e12`, or a prefixed one such as `f1e12`), if any. */
export function refOfLine(line: string): string | undefined {
  const match = /^\s*([a-z][\w.:-]*\d)\s/.exec(line);
  return match?.[1];
}

const indentOf = (line: string) => line.length - line.trimStart().length;

/** Line operations turning `before` into `after`: common prefix and suffix, an LCS in between. */
function lineOps(before: string[], after: string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let endA = before.length;
  let endB = after.length;
  while (endA > start && endB > start && before[endA - 1] === after[endB - 1]) {
    endA--;
    endB--;
  }
  const a = before.slice(start, endA);
  const b = after.slice(start, endB);
  const middle: Op[] = [];
  if (a.length * b.length > MAX_CELLS) {
    a.forEach((line, i) => middle.push({ kind: '-', line, at: start + i }));
    b.forEach((line, j) => middle.push({ kind: '+', line, at: start + j }));
  } else {
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..]
    const width = b.length + 1;
    const lcs = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--)
      for (let j = b.length - 1; j >= 0; j--)
        lcs[i * width + j] =
          a[i] === b[j]
            ? (lcs[(i + 1) * width + j + 1] ?? 0) + 1
            : Math.max(lcs[(i + 1) * width + j] ?? 0, lcs[i * width + j + 1] ?? 0);
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        middle.push({ kind: '=', line: a[i] ?? '', at: start + j });
        i++;
        j++;
      } else if (j < b.length && (i >= a.length || (lcs[i * width + j + 1] ?? 0) >= (lcs[(i + 1) * width + j] ?? 0))) {
        middle.push({ kind: '+', line: b[j] ?? '', at: start + j });
        j++;
      } else {
        middle.push({ kind: '-', line: a[i] ?? '', at: start + i });
        i++;
      }
    }
  }
  return middle;
}

/** A removed line and an added line with the same ref are one changed line. */
function pairByRef(ops: Op[]): Op[] {
  const removedByRef = new Map<string, Op>();
  for (const op of ops) {
    const ref = op.kind === '-' ? refOfLine(op.line) : undefined;
    if (ref) removedByRef.set(ref, op);
  }
  const paired = new Set<Op>();
  const out: Op[] = [];
  for (const op of ops) {
    const ref = op.kind === '+' ? refOfLine(op.line) : undefined;
    const was = ref ? removedByRef.get(ref) : undefined;
    if (was && !paired.has(was)) {
      paired.add(was);
      out.push({ kind: '~', line: op.line, at: op.at });
    } else out.push(op);
  }
  return out.filter((op) => !paired.has(op));
}

/** The nearest line above `at` with less indent than `indent`: where a run of changes sits. */
function parentLine(lines: string[], at: number, indent: number): string | undefined {
  for (let k = at - 1; k >= 0; k--) {
    const line = lines[k] ?? '';
    if (indentOf(line) < indent) return line.trim();
  }
  return undefined;
}

/** The change from `before` to `after`, and its text cut at `maxChars`. */
export function diffOutlines(before: string, after: string, maxChars = 1500): { change: OutlineChange; text: string } {
  const a = before.split('\n');
  const b = after.split('\n');
  const ops = pairByRef(lineOps(a, b));
  const change: OutlineChange = {
    added: ops.filter((op) => op.kind === '+').map((op) => op.line.trim()),
    removed: ops.filter((op) => op.kind === '-').map((op) => op.line.trim()),
    changed: ops.filter((op) => op.kind === '~').map((op) => op.line.trim()),
  };
  const total = change.added.length + change.removed.length + change.changed.length;
  if (!total) return { change, text: 'The outline did not change.' };

  // runs of consecutive changes, each written under the line that holds it
  const runs: Op[][] = [];
  let run: Op[] = [];
  for (const op of ops) {
    if (op.kind === '=') {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(op);
  }
  if (run.length) runs.push(run);

  const lines: string[] = [];
  let written = 0;
  let chars = 0;
  let cut = false;
  const put = (line: string, count = 1): boolean => {
    if (chars + line.length + 1 > maxChars) return false;
    lines.push(line);
    chars += line.length + 1;
    written += count;
    return true;
  };
  for (const ops of runs) {
    if (cut) break;
    const indent = Math.min(...ops.map((op) => indentOf(op.line)));
    const anchor = ops.find((op) => op.kind !== '-');
    const parent = anchor ? parentLine(b, anchor.at, indent) : parentLine(a, ops[0]?.at ?? 0, indent);
    if (parent && !put(`in ${parent}:`, 0)) {
      cut = true;
      break;
    }
    for (let k = 0; k < ops.length && !cut; k++) {
      const op = ops[k];
      if (!op) continue;
      const text = `${op.kind} ${' '.repeat(indentOf(op.line) - indent)}${op.line.trim()}`;
      // a long removed run (a page section behind a modal, a closed dialog) is one line and a count
      let removedRun = 0;
      while (op.kind === '-' && ops[k + 1 + removedRun]?.kind === '-') removedRun++;
      if (removedRun >= 3) {
        if (!put(`${text} … and ${removedRun} more removed lines`, removedRun + 1)) cut = true;
        k += removedRun;
      } else if (!put(text)) cut = true;
    }
  }
  if (cut) lines.push(`… ${total - written} more changed lines: call page_snapshot for the whole outline`);
  return { change, text: lines.join('\n') };
}
