import type { Json } from '../../protocol/common.js';
import type { PageCommandArgs } from '../../protocol/commands.js';
import { looksGestureBound, needsGesture, withGesture } from '../human/gesture.js';
import { toJson } from '../dom/json.js';

function compile(expression: string, awaitPromise: boolean): () => unknown {
  const indirectEval = eval;
  return () => {
    try {
      return indirectEval(expression) as unknown;
    } catch (error) {
      // top-level await is not allowed in eval: run it as the body of an async function
      if (awaitPromise && error instanceof SyntaxError && /await/.test(expression)) {
        try {
          return indirectEval(`(async () => (${expression}))()`) as unknown;
        } catch {
          return indirectEval(`(async () => { ${expression} })()`) as unknown;
        }
      }
      throw error;
    }
  };
}

function explain(error: unknown): Error {
  if (
    error instanceof EvalError ||
    (error instanceof Error && /unsafe-eval|Content Security Policy/i.test(error.message))
  )
    return new Error(
      `this page's Content-Security-Policy forbids eval ('unsafe-eval' is not allowed), so Runtime.evaluate cannot run here; use DOM.query, DOM.getText or the Input commands instead`,
    );
  if (error instanceof Error) {
    const wrapped = new Error(`${error.name}: ${error.message}`);
    wrapped.stack = error.stack;
    return wrapped;
  }
  return new Error(`the expression threw ${JSON.stringify(toJson(error))}`);
}

/** Evaluates in the page's global scope; retries inside the human's click when the browser wants a gesture. */
export async function evaluate(args: PageCommandArgs<'Runtime.evaluate'>): Promise<Json> {
  const run = compile(args.expression, args.awaitPromise ?? false);
  const settle = async (value: unknown) => (args.awaitPromise ? await value : value);
  const summary = args.expression.length > 120 ? `${args.expression.slice(0, 117)}…` : args.expression;
  if (looksGestureBound(args.expression)) {
    const value = await withGesture(`run ${summary}`, run);
    return { value: toJson(await settle(value)), note: 'ran inside the human’s click (gesture bridge)' };
  }
  try {
    return { value: toJson(await settle(run())) };
  } catch (error) {
    if (!needsGesture(error)) throw explain(error);
    const value = await withGesture(`run ${summary}`, run);
    return { value: toJson(await settle(value)), note: 'ran inside the human’s click (gesture bridge)' };
  }
}
