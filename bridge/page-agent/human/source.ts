import { isA } from '../dom/realm.js';
import type { SourceLocation } from '../../protocol/snapshot.js';
import { mapToSource } from './sourcemap.js';

/**
 * Where an element was written: the data-source attribute the Vite plugin adds (exact), React's _debugSource
 * (React ≤ 18) or owner stack (React 19: a line in the served module, close to the source), Vue's __file,
 * Svelte's __svelte_meta.
 */
type Bag = Record<string, unknown>;

function parent(el: Element): Element | null {
  if (el.parentElement) return el.parentElement;
  const root = el.getRootNode();
  return isA(root, ShadowRoot) ? root.host : null;
}

/** Paths relative to the project (data-source, Vue, Svelte, served URLs) are joined to the root when known. */
function join(root: string | undefined, file: string): string {
  if (file.startsWith('/@fs/')) return file.slice(4);
  if (!root || /^([a-z]:[\\/]|\\\\)/i.test(file) || (file.startsWith('/') && file.startsWith(root))) return file;
  return `${root.replace(/[\\/]+$/, '')}/${file.replace(/^\/+/, '')}`;
}

function location(
  file: string,
  line: number | undefined,
  column: number | undefined,
  via: string,
  root?: string,
): SourceLocation {
  return {
    file: via === 'react' ? file : join(root, file),
    ...(line && line > 0 ? { line } : {}),
    ...(column && column > 0 ? { column } : {}),
    via,
  };
}

function fromAttribute(el: Element, root?: string): SourceLocation | undefined {
  const attr = el.closest('[data-source]')?.getAttribute('data-source');
  const match = attr ? /^(.*?):(\d+)(?::(\d+))?$/.exec(attr) : null;
  if (!match?.[1]) return undefined;
  return location(match[1], Number(match[2]), match[3] ? Number(match[3]) : undefined, 'data-source', root);
}

/** The first frame of a stack that is app code (not React, not a dependency). */
function appFrame(stack: string): { url: string; file: string; line: number; column: number } | undefined {
  for (const line of stack.split('\n')) {
    const match = /\(?((?:https?|file):\/\/[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!match?.[1]) continue;
    const url = new URL(match[1]);
    if (
      /node_modules|\/@vite\/|\/@react-refresh|react-dom|jsx-dev-runtime|jsx-runtime|\/aiti\/page\.js/.test(
        url.pathname,
      )
    )
      continue;
    return { url: match[1], file: decodeURIComponent(url.pathname), line: Number(match[2]), column: Number(match[3]) };
  }
  return undefined;
}

let lastModuleUrl: string | undefined;

function fromReact(el: Element, root?: string): SourceLocation | undefined {
  lastModuleUrl = undefined;
  for (let node: Element | null = el; node; node = parent(node)) {
    const key = Object.keys(node).find((k) => k.startsWith('__reactFiber$'));
    if (!key) continue;
    let fiber = (node as unknown as Bag)[key] as Bag | undefined;
    for (let hops = 0; fiber && hops < 50; hops++, fiber = fiber.return as Bag | undefined) {
      const source = fiber._debugSource as
        { fileName?: string; lineNumber?: number; columnNumber?: number } | undefined;
      if (source?.fileName) return location(source.fileName, source.lineNumber, source.columnNumber, 'react', root);
      const stack = fiber._debugStack as { stack?: string } | undefined;
      const frame = typeof stack?.stack === 'string' ? appFrame(stack.stack) : undefined;
      if (frame) {
        lastModuleUrl = frame.url;
        return location(frame.file, frame.line, frame.column, 'react-owner-stack', root);
      }
    }
    return undefined;
  }
  return undefined;
}

function fromVue(el: Element, root?: string): SourceLocation | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const bag = node as unknown as Bag;
    const instance = bag.__vueParentComponent as { type?: { __file?: string } } | undefined;
    const file =
      instance?.type?.__file ?? (bag.__vue__ as { $options?: { __file?: string } } | undefined)?.$options?.__file;
    if (file) return location(file, undefined, undefined, 'vue', root);
  }
  return undefined;
}

function fromSvelte(el: Element, root?: string): SourceLocation | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const meta = (node as unknown as Bag).__svelte_meta as
      { loc?: { file?: string; line?: number; column?: number } } | undefined;
    if (meta?.loc?.file)
      return location(meta.loc.file, (meta.loc.line ?? 0) + 1, (meta.loc.column ?? 0) + 1, 'svelte', root);
  }
  return undefined;
}

export function sourceOf(el: Element, root?: string): SourceLocation | undefined {
  return fromAttribute(el, root) ?? fromReact(el, root) ?? fromVue(el, root) ?? fromSvelte(el, root);
}

/**
 * sourceOf, with an owner-stack position (a line of the served module) mapped back through the module's source
 * map to the line you wrote; without a usable map it stays the served line.
 */
export async function resolveSource(el: Element, root?: string): Promise<SourceLocation | undefined> {
  const found = sourceOf(el, root);
  const moduleUrl = lastModuleUrl;
  if (found?.via !== 'react-owner-stack' || !moduleUrl || !found.line) return found;
  const mapped = await mapToSource(moduleUrl, found.line, found.column ?? 1);
  if (!mapped) return found;
  return {
    ...location(mapped.file, mapped.line, mapped.column, 'react-owner-stack', root),
    via: 'react-owner-stack+sourcemap',
  };
}
