import type { PageErrorEntry } from '../../protocol/page.js';
import { cut, type Batcher } from './batch.js';
import { noteRaised } from './raised.js';
import { mapStack } from './stacks.js';

function describe(reason: unknown): { message: string; stack?: string } {
  if (reason instanceof Error)
    return { message: `${reason.name}: ${reason.message}`, ...(reason.stack ? { stack: reason.stack } : {}) };
  try {
    return { message: typeof reason === 'string' ? reason : (JSON.stringify(reason) ?? String(reason)) };
  } catch {
    return { message: String(reason) };
  }
}

/** Sends an entry once its stack is mapped to the lines written (its `at` keeps the moment it happened). */
function push(batcher: Batcher, entry: PageErrorEntry, root: string | undefined): void {
  if (!entry.stack) return batcher.push('page_error', entry);
  batcher.later(
    mapStack(entry.stack, root)
      .catch(() => entry.stack ?? '')
      .then((stack) => batcher.push('page_error', { ...entry, stack: cut(stack, 20_000) })),
  );
}

/** Uncaught errors and unhandled promise rejections. */
export function watchErrors(batcher: Batcher, root?: string): void {
  window.addEventListener('error', (event) => {
    // resource load failures arrive here too (capture phase only); those show in page_network or the console
    if (!(event instanceof ErrorEvent)) return;
    const { message, stack } =
      event.error !== undefined && event.error !== null
        ? describe(event.error)
        : { message: event.message, stack: undefined };
    noteRaised(
      'error',
      message || event.message || 'error',
      stack,
      event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : undefined,
      root,
    );
    const entry: PageErrorEntry = {
      kind: 'error',
      message: cut(message || event.message || 'error', 20_000),
      ...(stack ? { stack: cut(stack, 20_000) } : {}),
      ...(event.filename ? { source: `${event.filename}:${event.lineno}:${event.colno}`.slice(0, 8192) } : {}),
      at: new Date().toISOString(),
    };
    push(batcher, entry, root);
  });
  window.addEventListener('unhandledrejection', (event) => {
    const { message, stack } = describe(event.reason);
    noteRaised('unhandledrejection', message, stack, undefined, root);
    const entry: PageErrorEntry = {
      kind: 'unhandledrejection',
      message: cut(`Unhandled rejection: ${message}`, 20_000),
      ...(stack ? { stack: cut(stack, 20_000) } : {}),
      at: new Date().toISOString(),
    };
    push(batcher, entry, root);
  });
}
