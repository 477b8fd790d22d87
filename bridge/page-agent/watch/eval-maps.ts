import { agentFetch } from './network.js';

/**
 * webpack's eval-source-map (Next.js's webpack dev, a plain webpack or Rspack dev server): each module runs from an
 * eval'd string whose stack frames read `webpack-internal:///<module id>:line:col`, and whose source map is inline
 * in that string, inside the chunk that carries the module. The chunk is one of the page's own scripts: found by
 * the module's sourceURL, its map decoded from there.
 */
const INTERNAL = 'webpack-internal:///';

export function isEvalModule(url: string): boolean {
  return url.startsWith(INTERNAL);
}

const chunks = new Map<string, Promise<string>>();

function chunkText(url: string): Promise<string> {
  let text = chunks.get(url);
  if (!text) {
    text = agentFetch(url, { credentials: 'same-origin' })
      .then((res) => (res.ok ? res.text() : ''))
      .catch(() => '');
    chunks.set(url, text);
  }
  return text;
}

/** The page's own script URLs: the tags, and those webpack loaded on demand (also tags, or resource entries). */
function scriptUrls(): string[] {
  const urls = [...document.scripts].map((s) => s.src).filter(Boolean);
  for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    if (entry.initiatorType === 'script') urls.push(entry.name);
  return [...new Set(urls)].filter((url) => {
    try {
      return new URL(url).origin === location.origin && !/\/aiti\/page\.js$/.test(url);
    } catch {
      return false;
    }
  });
}

/** The inline map of the eval'd module `url` names, from the chunk that carries it; undefined when none does. */
export async function evalModuleMap(url: string): Promise<unknown> {
  const marker = `sourceURL=${url}\\n`;
  for (const script of scriptUrls()) {
    const text = await chunkText(script);
    const at = text.indexOf(marker);
    if (at < 0) continue;
    const start = text.lastIndexOf('base64,', at);
    if (start < 0) return undefined;
    const end = text.indexOf('\\n', start);
    const base64 = text.slice(start + 'base64,'.length, end < 0 ? at : end);
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    return JSON.parse(json) as unknown;
  }
  return undefined;
}
