#!/usr/bin/env node
// `npm run mutate [-- <group>…] [--force] [--jobs N] [--concurrency N] [--report]`: the mutation run of
// docs/TESTING.md. Runs Stryker once per group of scripts/mutate/groups.js (all groups when none is named),
// incrementally (a rerun tests only the mutants whose code or tests changed; --force tests all), `--jobs` groups at
// once, each with its own number of test runners (`runners` in groups.js; `--concurrency` gives every group the
// same), then prints the score of each module and writes it to reports/mutation/summary.md. --report only prints
// the table of the last runs.
// Exits 1 when a module measured is under the 85% floor, or a run failed.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GROUPS } from './mutate/groups.js';
import { inModule } from './mutate/scope.js';

const FLOOR = 85;
const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const VALUED = ['--concurrency', '--jobs'];
const count = (name, fallback) => {
  const i = args.indexOf(name);
  if (i === -1) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`mutate: ${name} takes a whole number from 1 up, not "${args[i + 1] ?? ''}"`);
    process.exit(2);
  }
  return value;
};
// On this project's two cores (docs/TESTING.md, "How long it takes"): most groups' tests wait more than they work
// (on a socket, a timer, a deadline), so three groups at once, each with the test runners groups.js gives it, keep
// both cores busy while a passing test stays well inside its time limit.
const concurrency = count('--concurrency', undefined);
const jobs = count('--jobs', 3);
const named = args.filter((a, i) => !a.startsWith('--') && !VALUED.includes(args[i - 1]));
const unknown = named.filter((name) => !GROUPS[name]);
if (unknown.length) {
  console.error(`mutate: no group ${unknown.join(', ')}; the groups are ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
const groups = named.length ? named : Object.keys(GROUPS);
// with groups side by side, each writes its output to a log of its own
const toLogs = Math.min(jobs, groups.length) > 1;

const failed = [];
// a Stryker run outlives this process unless told: one stopped here stops them (and their test runners) too
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exit(130);
  });
if (!flag('--report')) {
  const started = Date.now();
  // the longest first, so the others fill the time beside it
  const queue = [...groups].sort((a, b) => (GROUPS[b].minutes ?? 0) - (GROUPS[a].minutes ?? 0));
  const lanes = Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let name = queue.shift(); name; name = queue.shift()) if (!(await runGroup(name))) failed.push(name);
  });
  await Promise.all(lanes);
  console.error(`mutate: ${groups.length} group(s) in ${minutesSince(started)} min`);
}
const { table, survivors, under } = summarize(groups);
mkdirSync(`${root}/reports/mutation`, { recursive: true });
writeFileSync(`${root}/reports/mutation/summary.md`, `${table}\n\n${survivors}\n`);
console.log(`\n${table}\n\n${survivors}`);
if (failed.length) console.error(`mutate: Stryker failed for ${failed.join(', ')}`);
if (under.length) console.error(`mutate: under ${FLOOR}%: ${under.join(', ')}`);
process.exit(failed.length || under.length ? 1 : 0);

/**
 * Runs Stryker for one group and resolves whether it succeeded. With one group at a time its output is this
 * process's; with several it goes to reports/mutation/<group>.log, and only its start and end are printed here.
 * @param {string} name
 * @returns {Promise<boolean>}
 */
function runGroup(name) {
  const started = Date.now();
  const log = `reports/mutation/${name}.log`;
  const runners = concurrency ?? GROUPS[name].runners ?? 2;
  console.error(
    `\nmutate: group "${name}" (${GROUPS[name].what}), ${runners} test runners` +
      (toLogs ? `, its output in ${log}` : ''),
  );
  retestStaticSurvivors(name);
  mkdirSync(`${root}/reports/mutation`, { recursive: true });
  const child = spawn(
    process.execPath,
    ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', 'scripts/mutate/stryker.config.mjs'],
    {
      cwd: root,
      stdio: toLogs ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: {
        ...process.env,
        AITI_MUTATE_GROUP: name,
        AITI_MUTATE_FORCE: flag('--force') ? '1' : '0',
        AITI_MUTATE_CONCURRENCY: String(runners),
      },
    },
  );
  running.add(child);
  if (toLogs) {
    const out = createWriteStream(`${root}/${log}`);
    child.stdout?.pipe(out);
    child.stderr?.pipe(out);
  }
  return new Promise((resolve) =>
    child.on('close', (code) => {
      running.delete(child);
      console.error(`mutate: group "${name}" ${code === 0 ? 'done' : 'FAILED'} in ${minutesSince(started)} min`);
      resolve(code === 0);
    }),
  );
}

function minutesSince(started) {
  return ((Date.now() - started) / 60_000).toFixed(1);
}

/**
 * Drops the static mutants that survived from a group's incremental file, so this run tests them again. Stryker
 * reuses a survivor when none of the tests that covered it changed, and a static mutant (code that runs at load)
 * is covered by no test in particular: without this, a test added to kill one would never be tried on it.
 */
function retestStaticSurvivors(name) {
  const file = `${root}/reports/mutation/${name}.incremental.json`;
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8'));
  for (const entry of Object.values(report.files))
    entry.mutants = entry.mutants.filter((m) => !m.static || m.status === 'Killed' || m.status === 'Timeout');
  writeFileSync(file, JSON.stringify(report));
}

/**
 * The score table (one row per module: killed / (killed + survived + no coverage), timeouts count as killed,
 * mutants marked equivalent in the source are left out) and the list of survivors, from each group's JSON report.
 */
function summarize(names) {
  const rows = [];
  const lost = [];
  const under = [];
  for (const name of names) {
    const file = `${root}/reports/mutation/${name}.json`;
    if (!existsSync(file)) {
      rows.push(`| ${name} | (not run yet) | | | | | |`);
      continue;
    }
    const report = JSON.parse(readFileSync(file, 'utf8'));
    for (const module of GROUPS[name].modules) {
      const entry = report.files[module.file];
      const source = entry?.source ?? '';
      const mine = entry ? inModule(module, source) : () => true;
      const mutants = (entry?.mutants ?? []).filter((m) => mine(m.location.start.line));
      const count = (...statuses) => mutants.filter((m) => statuses.includes(m.status)).length;
      const killed = count('Killed', 'Timeout');
      const survived = count('Survived');
      const uncovered = count('NoCoverage');
      const equivalent = count('Ignored');
      const valid = killed + survived + uncovered;
      const score = valid ? (100 * killed) / valid : 100;
      const label = module.only
        ? `${module.file} (${module.only.join(', ')})`
        : module.except
          ? `${module.file} (but ${module.except.join(', ')})`
          : module.file;
      if (score < FLOOR) under.push(label);
      rows.push(
        `| ${name} | ${label} | ${score.toFixed(1)}% | ${killed} | ${survived} | ${uncovered} | ${equivalent} |`,
      );
      for (const m of mutants.filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')) {
        const at = `${module.file}:${m.location.start.line}:${m.location.start.column}`;
        // the code it replaces, not only where it starts: two mutants may start at one place (a condition and
        // its left operand) and read alike
        const change = `\`${oneLine(codeAt(source, m.location))}\` → \`${oneLine(m.replacement ?? '')}\``;
        lost.push(`- ${at} ${m.mutatorName} (${m.status}): ${change}`);
      }
    }
  }
  const table = [
    '| group | module | score | killed | survived | no coverage | equivalent (ignored) |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n');
  return { table, survivors: lost.length ? `Survivors:\n${lost.join('\n')}` : 'No survivors.', under };
}

/** The text of a report location (lines and columns from 1, the end exclusive) in the source. */
function codeAt(source, { start, end }) {
  const lines = source.split('\n');
  const offset = ({ line, column }) =>
    lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + column - 1;
  return source.slice(offset(start), offset(end));
}

function oneLine(text) {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
}
