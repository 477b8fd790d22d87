import { agentFetch } from './network.js';
import { evalModuleMap, isEvalModule } from './eval-maps.js';

/**
 * Maps a position in a served module back to its source through the module's source map (Vite serves inline
 * maps in dev), so a React owner stack names the line in the file you wrote rather than in the transformed code.
 */
export interface Position {
  file: string;
  line: number;
  column: number;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = B64.indexOf(char);
    if (digit === -1) return values;
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

interface RawMap {
  sources?: string[];
  sourceRoot?: string;
  mappings?: string;
  /** an index map (Turbopack's): each section maps the generated code from its offset on */
  sections?: Array<{ offset?: { line?: number; column?: number }; map?: RawMap }>;
}

/** The section of an index map that holds 0-based (line, column), with the position made relative to it. */
function section(map: RawMap, line: number, column: number): { map: RawMap; line: number; column: number } | undefined {
  let found: { map: RawMap; line: number; column: number } | undefined;
  for (const part of map.sections ?? []) {
    const at = { line: part.offset?.line ?? 0, column: part.offset?.column ?? 0 };
    if (!part.map || at.line > line || (at.line === line && at.column > column)) break;
    found = { map: part.map, line: line - at.line, column: line === at.line ? column - at.column : column };
  }
  return found;
}

/** The original position of 1-based (line, column) in the generated code, from a parsed source map. */
export function originalPosition(
  map: RawMap,
  line: number,
  column: number,
): (Omit<Position, 'file'> & { source: string }) | undefined {
  if (map.sections) {
    const part = section(map, line - 1, column - 1);
    return part ? originalPosition(part.map, part.line + 1, part.column + 1) : undefined;
  }
  const lines = (map.mappings ?? '').split(';');
  let source = 0;
  let origLine = 0;
  let origColumn = 0;
  let best: { source: number; line: number; column: number } | undefined;
  for (let l = 0; l < lines.length && l < line; l++) {
    let genColumn = 0;
    for (const segment of (lines[l] ?? '').split(',')) {
      if (!segment) continue;
      const [col = 0, src, oLine, oCol] = decodeSegment(segment);
      genColumn += col;
      if (src === undefined || oLine === undefined || oCol === undefined) continue;
      source += src;
      origLine += oLine;
      origColumn += oCol;
      if (l === line - 1 && genColumn <= column - 1) best = { source, line: origLine, column: origColumn };
    }
  }
  const name = best && map.sources?.[best.source];
  if (!best || name === undefined) return undefined;
  return { source: (map.sourceRoot ?? '') + name, line: best.line + 1, column: best.column + 1 };
}

const maps = new Map<string, Promise<RawMap | undefined>>();

async function loadMap(moduleUrl: string): Promise<RawMap | undefined> {
  if (isEvalModule(moduleUrl)) return (await evalModuleMap(moduleUrl)) as RawMap | undefined;
  const res = await agentFetch(moduleUrl, { credentials: 'same-origin' });
  if (!res.ok) return undefined;
  const code = await res.text();
  const match = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(code);
  if (!match?.[1]) return undefined;
  const ref = match[1];
  if (ref.startsWith('data:')) {
    const comma = ref.indexOf(',');
    const body = ref.slice(comma + 1);
    const json = ref.slice(0, comma).endsWith(';base64')
      ? new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)))
      : decodeURIComponent(body);
    return JSON.parse(json) as RawMap;
  }
  const mapRes = await agentFetch(new URL(ref, moduleUrl), { credentials: 'same-origin' });
  return mapRes.ok ? ((await mapRes.json()) as RawMap) : undefined;
}

/** Where `line:column` of the module at `moduleUrl` came from; undefined when the module has no usable map. */
export async function mapToSource(moduleUrl: string, line: number, column: number): Promise<Position | undefined> {
  let map = maps.get(moduleUrl);
  if (!map) {
    map = loadMap(moduleUrl).catch(() => undefined);
    maps.set(moduleUrl, map);
  }
  const raw = await map;
  const found = raw && originalPosition(raw, line, column);
  if (!found) return undefined;
  return { file: sourceFile(found.source, moduleUrl), line: found.line, column: found.column };
}

/**
 * A map's source as a path: absolute (`file:///…`, Turbopack), relative to the project (`webpack://_N_E/./app/x.tsx`
 * → `app/x.tsx`, joined to the root by the caller), or the served path (Vite's `/src/App.tsx`).
 */
function sourceFile(source: string, moduleUrl: string): string {
  const webpack = /^webpack:\/\/[^/]*\/(.*)$/.exec(source);
  if (webpack) return decodeURIComponent(((webpack[1] ?? '').split('?', 1)[0] ?? '').replace(/^\.\//, ''));
  const turbopack = /^turbopack:\/\/\/\[project\]\/(.*)$/.exec(source);
  if (turbopack) return decodeURIComponent(turbopack[1] ?? '');
  const path = /^[a-z]+:\/\//i.test(source)
    ? new URL(source).pathname
    : source.startsWith('/')
      ? source
      : new URL(source, moduleUrl).pathname;
  return decodeURIComponent(path);
}
