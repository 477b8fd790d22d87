import { agentFetch } from '../watch/network.js';

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
}

/** The original position of 1-based (line, column) in the generated code, from a parsed source map. */
export function originalPosition(
  map: RawMap,
  line: number,
  column: number,
): (Omit<Position, 'file'> & { source: string }) | undefined {
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
  const file = /^[a-z]+:\/\//i.test(found.source)
    ? new URL(found.source).pathname
    : found.source.startsWith('/')
      ? found.source
      : new URL(found.source, moduleUrl).pathname;
  return { file: decodeURIComponent(file), line: found.line, column: found.column };
}
