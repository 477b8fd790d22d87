import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * No import circle in product code (issue #43): a circle means two files are one idea, or one of them sits in the
 * wrong layer, and the import allow-lists (eslint.config.js) see folders, not files. Type-only imports count: they
 * tie the files together as tightly for whoever reads or moves them.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const PRODUCT = ['bridge', 'renderer/src', 'electron'];

/**
 * Circles that another branch of issue #43 removes; each entry must still be a circle, so the list only shrinks.
 * Empty: `asks.ts` ↔ `ledger.ts` went with item 1 (one ask shape).
 */
const KNOWN: string[][] = [];

/** Every .ts/.tsx file under `dirs` (relative to `base`) with the project files it imports. */
function importGraph(base: string, dirs: string[]): Map<string, string[]> {
  const files = dirs.flatMap((dir) =>
    readdirSync(join(base, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.includes('node_modules'))
      .map((f) => join(dir, f).split('\\').join('/')),
  );
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(base, file), 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) =>
        relative(base, resolve(base, dirname(file), name))
          .split('\\')
          .join('/'),
      )
      .map((path) => [path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.tsx')].find((p) => known.has(p)))
      .filter((path): path is string => path !== undefined);
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one file (Tarjan), each sorted: the import circles. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0] ?? '').localeCompare(b[0] ?? ''));
}

describe('import circles', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'aiti-circles-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('are found through any number of files and folders, type-only imports included', () => {
    mkdirSync(join(scratch, 'src/ui'), { recursive: true });
    writeFileSync(join(scratch, 'src/a.ts'), "import { b } from './ui/b.js';\nexport const a = b;\n");
    writeFileSync(join(scratch, 'src/ui/b.ts'), "import type { C } from './c.js';\nexport const b: C = 1;\n");
    writeFileSync(join(scratch, 'src/ui/c.ts'), "import { a } from '../a.js';\nexport type C = typeof a;\n");
    writeFileSync(join(scratch, 'src/leaf.ts'), "import { a } from './a.js';\nexport const leaf = a;\n");
    expect(circles(importGraph(scratch, ['src']))).toEqual([['src/a.ts', 'src/ui/b.ts', 'src/ui/c.ts']]);
  });

  it('are none in product code (bridge/, renderer/src/, electron/) but the ones another branch removes', () => {
    const graph = importGraph(root, PRODUCT);
    expect(graph.size).toBeGreaterThan(300);
    expect(circles(graph)).toEqual(KNOWN);
  });
});
