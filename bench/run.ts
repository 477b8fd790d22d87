import { chromium } from 'playwright-core';
import { coldStart } from './cold-start.js';
import { floorRows, measureFloor } from './floor.js';
import { pageScript } from './page-script.js';
import { writeReport, type BenchRow } from './report.js';

/** `npm run bench [group ...]`: runs the benchmarks and writes docs/PERFORMANCE.md and docs/performance.json. */
const CALLS = Number(process.env.AITI_BENCH_CALLS ?? 500);
const only = process.argv.slice(2);
const wanted = (name: string) => !only.length || only.includes(name);

const rows: BenchRow[] = [];
const notes: string[] = [];

async function section(name: string, run: () => Promise<BenchRow[]>): Promise<void> {
  if (!wanted(name)) return;
  const started = Date.now();
  try {
    rows.push(...(await run()));
    process.stderr.write(`bench: ${name} done in ${Date.now() - started} ms\n`);
  } catch (error) {
    notes.push(`${name}: not measured — ${(error as Error).message}`);
    process.stderr.write(`bench: ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
  }
}

await section('script', pageScript);
await section('startup', coldStart);
await section('roundtrip', async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const floor = await measureFloor(browser, CALLS);
    return floorRows(floor, CALLS);
  } finally {
    await browser.close();
  }
});

writeReport(rows, notes);
process.stderr.write(
  `bench: wrote docs/PERFORMANCE.md (${rows.length} rows${notes.length ? `, ${notes.length} not measured` : ''})\n`,
);
for (const row of rows)
  process.stdout.write(
    `${row.group} | ${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target}: ${row.met ? 'met' : 'NOT met'})` : ''}\n`,
  );
