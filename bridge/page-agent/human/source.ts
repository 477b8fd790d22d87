import { isA } from '../dom/realm.js';
import type { SourceLocation } from '../../protocol/snapshot.js';
import { mapToSource } from '../watch/sourcemap.js';

/**
 * Where an element was written: the data-source attribute the Vite plugin adds (exact), React's _debugSource
 * (React ≤ 18) or owner stack (React 19: a line in the served module, close to the source), Vue's __file,
 * Svelte's __svelte_meta; and the component it belongs to (React's owner, Vue's instance, Svelte's file).
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
  return `${root.replace(/(?<![\\/])[\\/]+$/, '')}/${file.replace(/^\/+/, '')}`;
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

/** The element's own data-source, or (nearest: true) the nearest ancestor's. */
function fromAttribute(el: Element, root: string | undefined, nearest: boolean): SourceLocation | undefined {
  const attr = (nearest ? el.closest('[data-source]') : el)?.getAttribute('data-source');
  const match = attr ? /^(.*?):(\d+)(?::(\d+))?$/.exec(attr) : null;
  if (!match?.[1]) return undefined;
  return location(match[1], Number(match[2]), match[3] ? Number(match[3]) : undefined, 'data-source', root);
}

interface Frame {
  url: string;
  file: string;
  line: number;
  column: number;
}

/** Frames of a stack that are app code: not React, not a dependency (Vite serves those pre-bundled, `?v=`). */
function appFrames(stack: string): Frame[] {
  const frames: Frame[] = [];
  for (const line of stack.split('\n')) {
    // webpack's module ids hold parentheses: `webpack-internal:///(app-pages-browser)/./app/Form.tsx:9:7`
    const match =
      /\((webpack-internal:\/\/\/\S+?):(\d+):(\d+)\)\s*$/.exec(line) ??
      /\(?((?:https?|file):\/\/[^\s()]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (!match?.[1]) continue;
    // an eval'd module's URL has no host: read it as one for its path
    const url = new URL(match[1].replace(/^webpack-internal:\/\/\//, 'http://webpack-internal/'));
    if (
      url.searchParams.has('v') ||
      /node_modules|\/@vite\/|\/@react-refresh|react-dom|jsx-dev-runtime|jsx-runtime|\/\.vite\/|\/deps\/|\/aiti\/page\.js/.test(
        url.pathname,
      )
    )
      continue;
    frames.push({
      url: match[1],
      file: decodeURIComponent(url.pathname),
      line: Number(match[2]),
      column: Number(match[3]),
    });
  }
  return frames;
}

/** owner-stack candidates of the last sourceOf, in order, for resolveSource to map */
let candidates: Array<{ frame: Frame; component?: string }> = [];

/**
 * The component a fiber is: its type's name (a forwardRef's render function carries the name React Aria gives
 * it); for a tag (a host fiber), the component whose render wrote it, its owner.
 */
function componentName(fiber: Bag): string | undefined {
  const type = fiber.type as
    { displayName?: unknown; name?: unknown; render?: { name?: unknown; displayName?: unknown } } | string | undefined;
  if (typeof type === 'string') {
    const owner = fiber._debugOwner as Bag | undefined;
    return owner && typeof owner.type !== 'string' ? componentName(owner) : undefined;
  }
  if (!type) return undefined;
  for (const name of [type.displayName, type.render?.displayName, type.name, type.render?.name])
    if (typeof name === 'string' && name) return name.slice(0, 200);
  return undefined;
}

/**
 * React: the element's fiber, then up its owners (the components that created it). Each owner's _debugStack
 * (React 19) or _debugSource (React ≤ 18) says where its element was written; the first that is app code is the
 * line to open, and that owner is the component written there (an MUI Button's <button> leads to the line of
 * `<Button>` in your file, not to MUI's source or the enclosing tag).
 */
function fromReact(el: Element, root?: string): SourceLocation | undefined {
  candidates = [];
  for (let node: Element | null = el; node; node = parent(node)) {
    const key = Object.keys(node).find((k) => k.startsWith('__reactFiber$'));
    if (!key) continue;
    let fiber = (node as unknown as Bag)[key] as Bag | undefined;
    for (let hops = 0; fiber && hops < 50; hops++, fiber = (fiber._debugOwner ?? undefined) as Bag | undefined) {
      const component = componentName(fiber);
      const source = fiber._debugSource as
        { fileName?: string; lineNumber?: number; columnNumber?: number } | undefined;
      if (source?.fileName && !/node_modules/.test(source.fileName) && !candidates.length)
        return {
          ...location(source.fileName, source.lineNumber, source.columnNumber, 'react', root),
          ...(component ? { component } : {}),
        };
      const stack = fiber._debugStack as { stack?: string } | undefined;
      const [frame] = typeof stack?.stack === 'string' ? appFrames(stack.stack) : [];
      if (frame) candidates.push({ frame, ...(component ? { component } : {}) });
    }
    const [first] = candidates;
    if (!first) return undefined;
    const { frame, component } = first;
    return {
      ...location(frame.file, frame.line, frame.column, 'react-owner-stack', root),
      ...(component ? { component } : {}),
    };
  }
  return undefined;
}

interface VueInstance {
  type?: { name?: unknown; __name?: unknown; __file?: unknown };
  parent?: VueInstance | null;
}

function fromVue(el: Element, root?: string): SourceLocation | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const bag = node as unknown as Bag;
    const instance = bag.__vueParentComponent as VueInstance | undefined;
    const own = instance?.type?.__file;
    const file =
      typeof own === 'string' ? own : (bag.__vue__ as { $options?: { __file?: string } } | undefined)?.$options?.__file;
    if (file) return location(file, undefined, undefined, 'vue', root);
  }
  return undefined;
}

/** A component's name from its file: `src/NameField.vue` → NameField. */
function fileStem(file: string): string | undefined {
  const stem = file
    .split(/[\\/]/)
    .pop()
    ?.replace(/\.[^.]*$/, '');
  return stem ? stem.slice(0, 200) : undefined;
}

/** Whether two paths name the same file, one of them possibly relative to the project. */
function sameFile(a: string, b: string): boolean {
  const norm = (p: string) => p.replace(/\\/g, '/').replace(/^\.?\/+/, '');
  const [x, y] = [norm(a), norm(b)];
  return x === y || x.endsWith(`/${y}`) || y.endsWith(`/${x}`);
}

/**
 * Vue 3: the component instance that rendered the element (`__vueParentComponent`), named by its `name`, else
 * the `__name` <script setup> gives it, else its file. Slot content is rendered by the child that holds the slot,
 * so the instance whose file is the reported file wins (walking up `parent`).
 */
function vueComponent(el: Element, file: string): string | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const first = (node as unknown as Bag).__vueParentComponent as VueInstance | undefined;
    if (!first) continue;
    let written: VueInstance | undefined;
    for (let at: VueInstance | null | undefined = first, hops = 0; at && hops < 50; at = at.parent, hops++) {
      const own = at.type?.__file;
      if (typeof own === 'string' && sameFile(own, file)) {
        written = at;
        break;
      }
    }
    const type = (written ?? first).type;
    for (const name of [type?.name, type?.__name]) if (typeof name === 'string' && name) return name.slice(0, 200);
    return typeof type?.__file === 'string' ? fileStem(type.__file) : undefined;
  }
  return undefined;
}

/**
 * Svelte 5's dev build gives each element `__svelte_meta.loc.file`, the component file it is written in, and a
 * `parent` chain whose `componentTag` is the tag as written where a component is used (an import alias, or the
 * component a snippet is rendered in). A Svelte component is its file, and the compiler names it after the
 * file too: so the name is the file's stem.
 */
function svelteComponent(el: Element): string | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const file = ((node as unknown as Bag).__svelte_meta as { loc?: { file?: unknown } } | undefined)?.loc?.file;
    if (typeof file === 'string' && file) return fileStem(file);
  }
  return undefined;
}

/** React: the component whose render wrote the element (its fiber's owner), for a tag found by data-source. */
function reactOwner(el: Element): string | undefined {
  const key = Object.keys(el).find((k) => k.startsWith('__reactFiber$'));
  const fiber = key ? ((el as unknown as Bag)[key] as Bag | undefined) : undefined;
  const owner = fiber?._debugOwner as Bag | undefined;
  return owner ? componentName(owner) : undefined;
}

/** The component a location was found in, when the element's framework says (React, Vue 3, Svelte 5). */
function withComponent(el: Element, found: SourceLocation | undefined): SourceLocation | undefined {
  if (!found || found.component) return found;
  const component =
    found.via === 'svelte'
      ? svelteComponent(el)
      : found.via === 'vue' || found.via === 'data-source'
        ? (vueComponent(el, found.file) ?? reactOwner(el) ?? svelteComponent(el))
        : undefined;
  return component ? { ...found, component } : found;
}

/** A path Svelte gives relative to the working directory: strip the part the project root already ends with. */
function underRoot(root: string | undefined, file: string): string {
  if (!root || file.startsWith('/')) return file;
  const parts = root.replace(/(?<![\\/])[\\/]+$/, '').split(/[\\/]/);
  for (let i = 1; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (tail && file.startsWith(`${tail}/`)) return file.slice(tail.length + 1);
  }
  return file;
}

function fromSvelte(el: Element, root?: string): SourceLocation | undefined {
  for (let node: Element | null = el; node; node = parent(node)) {
    const meta = (node as unknown as Bag).__svelte_meta as
      { loc?: { file?: string; line?: number; column?: number; char?: number } } | undefined;
    const loc = meta?.loc;
    if (!loc?.file) continue;
    // Svelte 4 counts lines from 0 (and gives `char`); Svelte 5 from 1. Columns count from 0 in both.
    const line = (loc.line ?? 0) + (loc.char !== undefined ? 1 : 0);
    return location(underRoot(root, loc.file), line, (loc.column ?? 0) + 1, 'svelte', root);
  }
  return undefined;
}

/**
 * The element's own data-source first (exact, written by the plugin), then the framework's record of the
 * component that rendered it, and only then the nearest ancestor's data-source (a tag around it, less exact).
 */
export function sourceOf(el: Element, root?: string): SourceLocation | undefined {
  const own = fromAttribute(el, root, false);
  if (own) return withComponent(el, own);
  return (
    fromReact(el, root) ?? withComponent(el, fromVue(el, root) ?? fromSvelte(el, root)) ?? fromAttribute(el, root, true)
  );
}

/**
 * sourceOf, with an owner-stack position (a line of the served module) mapped back through the module's source
 * map to the line you wrote; without a usable map it stays the served line.
 */
export async function resolveSource(el: Element, root?: string): Promise<SourceLocation | undefined> {
  const found = sourceOf(el, root);
  if (found?.via !== 'react-owner-stack') return found;
  // the first owner whose line maps to a file you wrote (a served module can still map into a dependency)
  for (const { frame, component } of [...candidates]) {
    const mapped = await mapToSource(frame.url, frame.line, frame.column);
    if (!mapped) return found;
    if (/\/node_modules\//.test(mapped.file)) continue;
    return {
      ...location(mapped.file, mapped.line, mapped.column, 'react-owner-stack', root),
      via: 'react-owner-stack+sourcemap',
      ...(component ? { component } : {}),
    };
  }
  return found;
}
