import { isA } from '../dom/realm.js';
import type { LogEntry } from '../../protocol/page.js';
import { describeElement } from '../dom/json.js';
import { cut, type Batcher } from './batch.js';
import { noteRaised } from './raised.js';
import { mapStack, withoutAgentFrames } from './stacks.js';

const LEVELS = ['debug', 'log', 'info', 'warn', 'error'] as const;

function format(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (isA(value, Element)) return describeElement(value);
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (typeof value !== 'object' || value === null) return String(value);
  try {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[circular]';
        seen.add(v);
      }
      return typeof v === 'bigint' ? `${v}n` : v;
    });
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** printf-style %s %d %i %f %o %O %j substitutions and %c (styles, dropped) in the first argument. */
function render(args: unknown[]): string {
  const [first, ...rest] = args;
  if (typeof first !== 'string' || !first.includes('%')) return args.map(format).join(' ');
  let i = 0;
  const text = first.replace(/%[sdifoOjc%]/g, (token) => {
    if (token === '%%') return '%';
    if (i >= rest.length) return token;
    const value = rest[i++];
    if (token === '%c') return '';
    if (token === '%d' || token === '%i') return String(Math.trunc(Number(value)));
    if (token === '%f') return String(Number(value));
    return format(value);
  });
  return [text, ...rest.slice(i).map(format)].join(' ');
}

/** Every console call, all levels, with a stack for errors; the page's own console still shows every call. */
export function watchConsole(batcher: Batcher, root?: string): void {
  const target = console as unknown as Record<string, (...args: unknown[]) => void>;
  const patch = (method: string, level: LogEntry['level']) => {
    const original = target[method];
    if (typeof original !== 'function') return;
    target[method] = function (this: unknown, ...args: unknown[]) {
      try {
        const error = args.find((a): a is Error => a instanceof Error);
        const stack =
          level === 'error' ? (error?.stack ?? new Error().stack?.split('\n').slice(1).join('\n')) : undefined;
        const entry: LogEntry = {
          level,
          text: cut(render(args), 20_000),
          url: location.href.slice(0, 8192),
          at: new Date().toISOString(),
        };
        if (level === 'error' && method === 'error') noteRaised('console.error', entry.text, stack, undefined, root);
        if (!stack) batcher.push('page_log', entry);
        else
          batcher.later(
            mapStack(stack, root)
              .catch(() => withoutAgentFrames(stack))
              .then((mapped) => batcher.push('page_log', { ...entry, stack: cut(mapped, 20_000) })),
          );
      } catch {
        // never let watching break the page's logging
      }
      original.apply(this, args);
    };
  };
  for (const level of LEVELS) patch(level, level);
  patch('trace', 'debug');
  patch('assert', 'error');
}
