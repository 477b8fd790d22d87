import { relative } from 'node:path';

/**
 * `@aiti-ai/aiti-bridge/vite`: in `vite dev` only, adds the page agent script to every HTML page and marks each intrinsic
 * JSX element with `data-source="src/File.tsx:line:col"`, so Alt+click and the element picker know the exact
 * source line. Production builds are untouched.
 */
export interface AitiViteOptions {
  /** where the bridge listens (default AITI_BRIDGE_URL or http://127.0.0.1:8777) */
  bridgeUrl?: string;
  /** add data-source attributes to JSX elements (default true) */
  sourceAttributes?: boolean;
}

/**
 * The plugin as Vite sees it, written out so the package's declarations need no `vite` (an optional peer: a
 * project that imports the plugin without Vite still typechecks). Vite's own `Plugin` type accepts it; the tests
 * hand it to Vite's `Plugin` and `defineConfig` to keep it so.
 */
export interface AitiVitePlugin {
  name: 'aiti-bridge';
  apply: 'serve';
  enforce: 'pre';
  configResolved(config: { root: string }): void;
  transformIndexHtml(): Array<{ tag: 'script'; attrs: Record<string, string>; injectTo: 'head-prepend' }>;
  transform(code: string, id: string): Promise<{ code: string; map: null } | null>;
}

interface Node {
  type?: string;
  start?: number;
  end?: number;
  name?: Node & { name?: string };
  attributes?: Array<{ name?: { name?: string } }>;
  [key: string]: unknown;
}

/** Offsets (UTF-16, as the parser gives them) to 1-based line and column. */
function lineIndex(code: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
}

/** A value that can be written between double quotes as it is, in JSX and in HTML alike. */
const PLAIN_VALUE = /^[\w./@+,:~-]*$/;

/**
 * ` data-source="<value>"` as JSX reads it back as exactly `value`. A file name is anybody's to choose
 * (`a" onClick={…} x=".tsx` is a valid one), and a JSX string has no escapes, so anything but a plain name goes
 * in as a JS string literal in an expression container.
 */
export function jsxSourceAttribute(value: string): string {
  return PLAIN_VALUE.test(value) ? ` data-source="${value}"` : ` data-source={${JSON.stringify(value)}}`;
}

/** The same for a Vue template, which decodes HTML character references in attribute values. */
export function htmlSourceAttribute(value: string): string {
  const escaped = value.replace(/[&"'<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return ` data-source="${escaped}"`;
}

/** Where to insert ` data-source="…"`: after the tag name of every lowercase JSX element without one. */
export function sourceAttributeInserts(ast: unknown, code: string, file: string): Array<[number, string]> {
  const at = lineIndex(code);
  const inserts: Array<[number, string]> = [];
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const n = node as Node;
    if (
      n.type === 'JSXOpeningElement' &&
      n.name?.type === 'JSXIdentifier' &&
      typeof n.name.name === 'string' &&
      /^[a-z]/.test(n.name.name) &&
      typeof n.start === 'number' &&
      typeof n.name.end === 'number' &&
      !n.attributes?.some((a) => a.name?.name === 'data-source')
    ) {
      const { line, column } = at(n.start);
      inserts.push([n.name.end, jsxSourceAttribute(`${file}:${line}:${column}`)]);
    }
    for (const value of Object.values(n)) if (value && typeof value === 'object') visit(value);
  };
  visit(ast);
  return inserts;
}

/** Vue's built-ins and tags that render no element of their own: no data-source for them. */
const VUE_NOT_ELEMENTS = new Set(['template', 'slot', 'component', 'transition', 'teleport', 'suspense']);

/**
 * Adds `data-source="src/App.vue:line:col"` to the lowercase HTML tags of a Vue SFC's top-level `<template>`
 * (components are capitalised or hyphenated, and are left alone). A scan, not a parse: a tag counts when `<`
 * starts a line or follows a space or `>`, outside comments, so expressions such as `a<b` are not touched.
 */
export function vueTemplateWithSources(code: string, file: string): string {
  const start = /^<template(\s[^>]*)?>/m.exec(code);
  if (!start) return code;
  const from = start.index + start[0].length;
  const endMatch = /^<\/template>/m.exec(code.slice(from));
  const to = endMatch ? from + endMatch.index : code.length;
  const at = lineIndex(code);
  const inserts: Array<[number, string]> = [];
  const tag = /(^|[\s>])<([a-z][a-z0-9]*)(?=[\s/>])/g;
  const template = code.slice(from, to);
  for (let m = tag.exec(template); m; m = tag.exec(template)) {
    const name = m[2] ?? '';
    const lt = from + m.index + (m[1] ?? '').length;
    if (VUE_NOT_ELEMENTS.has(name)) continue;
    const before = code.slice(from, lt);
    if (before.lastIndexOf('<!--') > before.lastIndexOf('-->')) continue; // inside a comment
    const close = code.indexOf('>', lt);
    if (close !== -1 && code.slice(lt, close).includes('data-source')) continue;
    const { line, column } = at(lt);
    inserts.push([lt + 1 + name.length, htmlSourceAttribute(`${file}:${line}:${column}`)]);
  }
  let out = code;
  for (const [offset, text] of inserts.sort((a, b) => b[0] - a[0]))
    out = out.slice(0, offset) + text + out.slice(offset);
  return out;
}

export function aitiBridge(options: AitiViteOptions = {}): AitiVitePlugin {
  const bridgeUrl = (options.bridgeUrl ?? process.env.AITI_BRIDGE_URL ?? 'http://127.0.0.1:8777').replace(
    /(?<!\/)\/+$/,
    '',
  );
  let root = process.cwd();
  return {
    name: 'aiti-bridge',
    apply: 'serve',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml() {
      return [
        {
          tag: 'script',
          // a classic, blocking script in <head>: it wraps console and fetch before the app's code runs
          attrs: { src: `${bridgeUrl}/aiti/page.js`, 'data-aiti-root': root },
          injectTo: 'head-prepend',
        },
      ];
    },
    async transform(code, id) {
      if (options.sourceAttributes === false) return null;
      if (/\.vue$/.test(id) && !id.includes('/node_modules/')) {
        const out = vueTemplateWithSources(code, relative(root, id).split('\\').join('/'));
        return out === code ? null : { code: out, map: null };
      }
      const path = id.split('?')[0] ?? id;
      const lang = /\.tsx$/.test(path) ? 'tsx' : /\.jsx$/.test(path) ? 'jsx' : undefined;
      if (!lang || path.includes('/node_modules/') || !code.includes('<')) return null;
      const { parseAst } = await import('vite');
      let ast: unknown;
      try {
        ast = parseAst(code, { lang });
      } catch {
        return null; // let the real compiler report the syntax error
      }
      const file = relative(root, path).split('\\').join('/');
      const inserts = sourceAttributeInserts(ast, code, file).sort((a, b) => b[0] - a[0]);
      if (!inserts.length) return null;
      let out = code;
      for (const [offset, text] of inserts) out = out.slice(0, offset) + text + out.slice(offset);
      // insertions stay within their lines, so line numbers of the previous map still hold
      return { code: out, map: null };
    },
  };
}

export default aitiBridge;
