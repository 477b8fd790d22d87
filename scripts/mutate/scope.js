// Turns the modules of a group (scripts/mutate/groups.js) into Stryker `mutate` patterns: a whole file, or the
// lines of the functions named in `only`, found in the current source so a group stays right when lines move.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/**
 * The line spans (1-based, inclusive) of the functions, methods and arrow-function constants called `names`.
 * @param {string} file
 * @param {string[]} names
 * @param {string} [text] the file's text, when not the one on disk (a report's copy of what it mutated)
 * @returns {Array<{ name: string, start: number, end: number }>}
 */
export function functionSpans(file, names, text = readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  /** @type {Array<{ name: string, start: number, end: number }>} */
  const spans = [];
  const lineOf = (/** @type {number} */ pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  /** @param {ts.Node} node */
  const visit = (node) => {
    const named =
      ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      (ts.isVariableDeclaration(node) && node.initializer && ts.isArrowFunction(node.initializer));
    const name = named && node.name && ts.isIdentifier(node.name) ? node.name.text : undefined;
    if (name && names.includes(name)) spans.push({ name, start: lineOf(node.getStart(source)), end: lineOf(node.end) });
    ts.forEachChild(node, visit);
  };
  visit(source);
  const missing = names.filter((name) => !spans.some((span) => span.name === name));
  if (missing.length)
    throw new Error(
      `scripts/mutate/groups.js: ${file} has no function or method named ${missing.join(', ')}; fix its "only" list`,
    );
  return spans;
}

/**
 * Stryker `mutate` patterns for these modules: `file`, `file:start-end` per function of `only`, or the lines
 * around the functions of `except`.
 * @param {Array<{ file: string, only?: string[], except?: string[] }>} modules
 */
export function mutatePatterns(modules) {
  return modules.flatMap(({ file, only, except }) => {
    if (only) return functionSpans(file, only).map(({ start, end }) => `${file}:${start}-${end}`);
    if (!except) return [file];
    const lines = readFileSync(file, 'utf8').split('\n').length;
    const ranges = [];
    let from = 1;
    for (const { start, end } of functionSpans(file, except).sort((a, b) => a.start - b.start)) {
      if (start > from) ranges.push(`${file}:${from}-${start - 1}`);
      from = end + 1;
    }
    if (from <= lines) ranges.push(`${file}:${from}-${lines}`);
    return ranges;
  });
}

/**
 * Whether a mutant starting on `line` is one of this module's: in a function of `only`, outside those of `except`.
 * Stryker's incremental report keeps the earlier results of a whole file, lines no longer mutated included.
 * @param {{ file: string, only?: string[], except?: string[] }} module
 * @param {string} text the file's text the report mutated
 * @returns {(line: number) => boolean}
 */
export function inModule({ file, only, except }, text) {
  const names = only ?? except;
  if (!names) return () => true;
  const spans = functionSpans(file, names, text);
  const inSpans = (/** @type {number} */ line) => spans.some(({ start, end }) => line >= start && line <= end);
  return only ? inSpans : (line) => !inSpans(line);
}
