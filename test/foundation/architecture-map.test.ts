import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md is the map; a map that names a file or an export that is gone sends the next reader astray.
 * This reads every `code` span of it: each file or folder path must exist, each capitalised name (a type, class or
 * constant) must be exported by some source file (or come from a package one imports), and a name cited "`x` in `file`" must be declared in that file.
 */
const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/ARCHITECTURE.md', root), 'utf8');
const sources = ['bridge', 'renderer/src', 'electron'].flatMap((dir) =>
  readdirSync(new URL(`${dir}/`, root), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => `${dir}/${f}`),
);
const sourceText = new Map(sources.map((f) => [f, readFileSync(new URL(f, root), 'utf8')]));

/** Where a path the map writes short may start: the repository, the server, the page agent, the window, the shell. */
const ROOTS = ['', 'bridge/', 'bridge/page-agent/', 'renderer/src/', 'electron/'];
const FILE = /^[\w.@-]+(\/[\w.@-]+)*\.(ts|tsx|js|mjs|json|md|yml)$/;
const FOLDER = /^[\w.@-]+(\/[\w.@-]+)*\/$/;

function exists(path: string, kind: 'file' | 'folder'): boolean {
  const url = new URL(path, root);
  return existsSync(url) && (kind === 'folder' ? statSync(url).isDirectory() : statSync(url).isFile());
}

/** The path a code span names, tried from each root and from the folders named before it in the same paragraph. */
function resolvePath(span: string, context: string[]): string | undefined {
  for (const base of [...ROOTS, ...context]) {
    const path = base + span;
    if (exists(path, span.endsWith('/') ? 'folder' : 'file')) return path;
  }
  return undefined;
}

function declares(text: string, name: string): boolean {
  return new RegExp(
    `(export\\s+(declare\\s+)?(default\\s+)?(async\\s+)?(abstract\\s+)?(const|let|function\\*?|class|interface|type|enum)\\s+${name}\\b)|(export\\s*(type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\})|((function|const|class)\\s+${name}\\b)`,
  ).test(text);
}

/** Exported by a source file, or imported by one from a package (the SDK's `Server`). */
function exported(name: string): boolean {
  const pattern = new RegExp(
    `export\\s+(declare\\s+)?(abstract\\s+)?(const|let|function|class|interface|type|enum)\\s+${name}\\b|export\\s*(type\\s*)?\\{[^}]*\\b${name}\\b|import\\s*(type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'[^.]`,
  );
  return [...sourceText.values()].some((text) => pattern.test(text));
}

interface Citation {
  span: string;
  line: number;
  context: string[];
  /** the file span right after `span` in "`span` in `file`" or "`span` (`file`", if any */
  inFile?: string;
}

function citations(): Citation[] {
  const found: Citation[] = [];
  let context: string[] = [];
  doc.split('\n').forEach((text, index) => {
    if (!text.trim()) context = [];
    for (const match of text.matchAll(/`([^`]+)`(?:\s+(?:in|\()\s*`([^`]+)`)?/g)) {
      const span = match[1] ?? '';
      found.push({ span, line: index + 1, context: [...context], ...(match[2] ? { inFile: match[2] } : {}) });
      const path = FOLDER.test(span) || FILE.test(span) ? resolvePath(span, context) : undefined;
      if (path) context.push(path.endsWith('/') ? path : path.replace(/[^/]+$/, ''));
    }
  });
  return found;
}

describe('docs/ARCHITECTURE.md', () => {
  const cited = citations();

  it('names only files and folders that exist', () => {
    const paths = cited.filter((c) => FILE.test(c.span) || FOLDER.test(c.span));
    expect(paths.length).toBeGreaterThan(100);
    const missing = paths.filter((c) => !resolvePath(c.span, c.context)).map((c) => `line ${c.line}: ${c.span}`);
    expect(missing).toEqual([]);
  });

  it('names only types, classes and constants some source file exports', () => {
    const names = cited
      .map((c) => ({ ...c, name: /^([A-Z][A-Za-z0-9_]*)(?=$|[.([])/.exec(c.span)?.[1] }))
      .filter((c): c is Citation & { name: string } => c.name !== undefined && /[a-z_]/.test(c.name.slice(1)));
    expect(names.length).toBeGreaterThan(20);
    const missing = names.filter((c) => !exported(c.name)).map((c) => `line ${c.line}: ${c.name}`);
    expect(missing).toEqual([]);
  });

  it('names a function or type "in" a file only where that file declares it', () => {
    const placed = cited.filter((c) => c.inFile && /^[A-Za-z_]\w*$/.test(c.span) && FILE.test(c.inFile));
    expect(placed.length).toBeGreaterThan(5);
    const wrong = placed.filter((c) => {
      const path = c.inFile ? resolvePath(c.inFile, c.context) : undefined;
      return !path || !declares(sourceText.get(path) ?? '', c.span);
    });
    expect(wrong.map((c) => `line ${c.line}: ${c.span} in ${c.inFile}`)).toEqual([]);
  });
});
