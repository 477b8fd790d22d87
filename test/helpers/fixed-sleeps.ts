import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The suite's fixed sleeps, to keep under 10 s in all (issue #43): a test waits on a condition or an injected clock,
 * not on time passing. A fixed sleep is an awaited delay of a known length — `sleep(ms)`, `page.waitForTimeout(ms)`
 * or `new Promise((r) => setTimeout(r, ms))` — outside a loop (inside one it is the interval of a poll, which ends
 * when its condition holds). A delay whose length is not a literal counts as the limit: it cannot be summed.
 */
export const LIMIT_MS = 10_000;
const root = fileURLToPath(new URL('../', import.meta.url));

interface Sleep {
  at: string;
  ms: number;
}

function testFiles(): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts') && !f.includes('node_modules'))
    .map((f) => f.split('\\').join('/'));
}

function inLoop(node: ts.Node): boolean {
  for (let up = node.parent; up !== undefined && !ts.isSourceFile(up); up = up.parent) {
    if (ts.isForStatement(up) || ts.isForOfStatement(up) || ts.isForInStatement(up)) return true;
    if (ts.isWhileStatement(up) || ts.isDoStatement(up)) return true;
  }
  return false;
}

/** The delay `call` waits, when it is a fixed sleep. */
function delayOf(call: ts.CallExpression): ts.Expression | undefined {
  const callee = call.expression;
  const [first, second] = call.arguments;
  if (ts.isIdentifier(callee) && callee.text === 'sleep') return first;
  if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'waitForTimeout') return first;
  // setTimeout(resolve, ms): the timer only resolves a promise, so whoever awaits it sleeps
  if (ts.isIdentifier(callee) && callee.text === 'setTimeout' && first && ts.isIdentifier(first)) return second;
  return undefined;
}

/** The longest `delay` can be: a literal, a sum of them, or a jitter `Math.random() * n`; else the whole limit. */
function msOf(delay: ts.Expression): number {
  if (ts.isNumericLiteral(delay)) return Number(delay.text);
  if (ts.isParenthesizedExpression(delay)) return msOf(delay.expression);
  if (ts.isBinaryExpression(delay)) {
    const { left, right, operatorToken } = delay;
    if (operatorToken.kind === ts.SyntaxKind.PlusToken) return msOf(left) + msOf(right);
    if (operatorToken.kind === ts.SyntaxKind.AsteriskToken && left.getText() === 'Math.random()') return msOf(right);
  }
  return LIMIT_MS;
}

export function fixedSleeps(): Sleep[] {
  const found: Sleep[] = [];
  for (const file of testFiles()) {
    const text = readFileSync(join(root, file), 'utf8');
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.name?.text === 'sleep') return;
      if (ts.isCallExpression(node) && !inLoop(node)) {
        const delay = delayOf(node);
        if (delay) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart());
          found.push({ at: `test/${file}:${line + 1}`, ms: msOf(delay) });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}
