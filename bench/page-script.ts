import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { BenchRow } from './report.js';

/** The page agent's size as pages download it. */
export async function pageScript(): Promise<BenchRow[]> {
  const file = new URL('../dist/page/page.js', import.meta.url);
  if (!existsSync(file)) throw new Error('dist/page/page.js is missing; run npm run build');
  const raw = readFileSync(file);
  return [
    { group: 'page script', name: 'page.js raw', value: Math.round(raw.length / 102.4) / 10, unit: 'KiB' },
    {
      group: 'page script',
      name: 'page.js gzip',
      value: Math.round(gzipSync(raw, { level: 9 }).length / 102.4) / 10,
      unit: 'KiB',
    },
  ];
}
