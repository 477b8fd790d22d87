import { loadavg } from 'node:os';
import { CHROMIUM_ARGS, chromiumPath } from '../test/helpers/chromium.js';
import { chromium, type Browser } from 'playwright-core';
import { clientsBench } from './clients.js';
import { coldStart } from './cold-start.js';
import { fixtureFormsBench } from './fixture-forms.js';
import { heldOutFormsBench } from './heldout-forms.js';
import { floodBench } from './flood.js';
import { journalBench } from './journal.js';
import { markdownBench } from './markdown.js';
import { muiFormBench } from './mui-form.js';
import { pageRoundTrip } from './page-roundtrip.js';
import { pageScript } from './page-script.js';
import { restartBench } from './restart.js';
import { writeReport, type BenchRow } from './report.js';
import { scaleBench } from './scale.js';
import { shimStart } from './shim-start.js';
import { snapshotBench } from './snapshot.js';
import { tokensBench } from './tokens.js';

/** `npm run bench [group ...]`: runs the benchmarks and writes docs/PERFORMANCE.md and docs/performance.json. */
const CALLS = Number(process.env.AITI_BENCH_CALLS ?? 500);
const only = process.argv.slice(2);
const wanted = (name: string) => !only.length || only.includes(name);

// The SDK's Streamable HTTP client hands one AbortSignal to every fetch of a session, and undici lets go of a
// fetch's listener on it only when the request is garbage-collected, so a long run of calls passes Node's warning
// limit without leaking (samanhappy/mcphub#1062, nodejs/undici#5285). The bench's agents are that client as it is:
// that one warning is dropped, every other is printed.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (
    warning.name === 'MaxListenersExceededWarning' &&
    / abort listeners added to \[AbortSignal\]/.test(warning.message)
  )
    return;
  process.stderr.write(`${warning.name}: ${warning.message}\n`);
});

const rows: BenchRow[] = [];
const notes: string[] = [];
const failed: string[] = [];

async function section(name: string, run: () => Promise<BenchRow[]>): Promise<void> {
  if (!wanted(name)) return;
  const started = Date.now();
  try {
    rows.push(...(await run()));
    process.stderr.write(`bench: ${name} done in ${Date.now() - started} ms\n`);
  } catch (error) {
    notes.push(`${name}: not measured — ${(error as Error).message}`);
    failed.push(name);
    process.stderr.write(`bench: ${name} failed: ${(error as Error).stack ?? String(error)}\n`);
  }
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(', ');
const loadAtStart = load();

await section('script', pageScript);
await section('startup', () => coldStart(notes));
await section('shim', () => shimStart(notes));

async function withBrowser<T>(run: (browser: Browser) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  try {
    return await run(browser);
  } finally {
    await browser.close();
  }
}

await section('roundtrip', () => withBrowser((browser) => pageRoundTrip(browser, CALLS, notes)));
await section('snapshot', () => withBrowser((browser) => snapshotBench(browser, notes)));
await section('tokens', () => withBrowser((browser) => tokensBench(browser, notes)));
await section('markdown', () => withBrowser((browser) => markdownBench(browser)));
await section('mui-form', () => muiFormBench(notes));
await section('forms', () => fixtureFormsBench(notes));
await section('heldout', () => heldOutFormsBench(notes));
await section('journal', () => journalBench(notes));
await section('restart', () => restartBench(notes));
await section('scale', () => scaleBench(notes));
await section('flood', () => floodBench(notes));
await section('clients', () => withBrowser((browser) => clientsBench(browser, notes)));
// a partial run's load line sits beside the full run's in the merged report: it names the sections it measured
const measured = only.length > 0 ? ` of ${only.join(', ')}` : '';
notes.push(
  `machine load (1, 5, 15 min averages) at the start of the run${measured}: ${loadAtStart}; at the end: ${load()}. Other work on the machine during the run distorts the times upwards.`,
);

writeReport(rows, notes, only.length > 0);
process.stderr.write(
  `bench: wrote docs/PERFORMANCE.md (${rows.length} rows${failed.length ? `; not measured: ${failed.join(', ')}` : ''})\n`,
);
for (const row of rows)
  process.stdout.write(
    `${row.group} | ${row.name}: ${row.value} ${row.unit}${row.target ? ` (target ${row.target}: ${row.met ? 'met' : 'NOT met'})` : ''}\n`,
  );
