// A Stryker reporter (scripts/mutate/stryker.config.mjs) that writes where a group's run spent its time:
// reports/mutation/<group>.timing.md. The dry run's slowest tests say how much room the time limits leave a
// passing test; the mutants' cost per status says what dominates (a Timeout costs its whole limit and a fresh
// test runner). A mutant's cost is the time since the previous result, so it is exact only with one runner.
import { mkdirSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { PluginKind, declareFactoryPlugin } from '@stryker-mutator/api/plugin';

const group = process.env.AITI_MUTATE_GROUP ?? 'group';
const seconds = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`;

function timingReporter() {
  const started = Date.now();
  let last = started;
  /** @type {string[]} */
  const dryRun = [];
  /** @type {Map<string, number>} */
  const limitOf = new Map();
  /** @type {Array<{ status: string, ms: number, limit: number | undefined, at: string }>} */
  const mutants = [];
  return {
    /** @param {import('@stryker-mutator/api/report').DryRunCompletedEvent} event */
    onDryRunCompleted({ result, timing }) {
      const tests = [...result.tests].sort((a, b) => b.timeSpentMs - a.timeSpentMs);
      dryRun.push(
        `Dry run: ${tests.length} tests, ${seconds(timing.net)} in tests, ${seconds(timing.overhead)} overhead, ` +
          `${seconds(Date.now() - started)} since the start.`,
        '',
        'Slowest tests of the dry run:',
        ...tests.slice(0, 8).map((test) => `- ${seconds(test.timeSpentMs)} ${test.name}`),
      );
      last = Date.now();
    },
    /** @param {import('@stryker-mutator/api/report').MutationTestingPlanReadyEvent} event */
    onMutationTestingPlanReady({ mutantPlans }) {
      for (const plan of mutantPlans) if ('runOptions' in plan) limitOf.set(plan.mutant.id, plan.runOptions.timeout);
      last = Date.now();
    },
    /** @param {import('@stryker-mutator/api/core').MutantResult} mutant */
    onMutantTested(mutant) {
      const now = Date.now();
      if (limitOf.has(mutant.id))
        mutants.push({
          status: mutant.status,
          ms: now - last,
          limit: limitOf.get(mutant.id),
          at: `${relative(process.cwd(), mutant.fileName)}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName}`,
        });
      last = now;
    },
    wrapUp() {
      /** @type {Map<string, { count: number, ms: number }>} */
      const byStatus = new Map();
      for (const { status, ms } of mutants) {
        const entry = byStatus.get(status) ?? { count: 0, ms: 0 };
        byStatus.set(status, { count: entry.count + 1, ms: entry.ms + ms });
      }
      const slowest = [...mutants].sort((a, b) => b.ms - a.ms).slice(0, 10);
      const text = [
        `# Where the "${group}" run spent its time`,
        '',
        `${seconds(Date.now() - started)} in all, ${mutants.length} mutants run.`,
        '',
        ...dryRun,
        '',
        '| status | mutants | time | each, on average |',
        '|---|---:|---:|---:|',
        ...[...byStatus].map(
          ([status, { count, ms }]) => `| ${status} | ${count} | ${seconds(ms)} | ${seconds(ms / count)} |`,
        ),
        '',
        'Slowest mutants (time, its limit):',
        ...slowest.map(
          ({ ms, limit, at, status }) => `- ${seconds(ms)} (limit ${seconds(limit ?? 0)}) ${status} ${at}`,
        ),
        '',
      ].join('\n');
      mkdirSync('reports/mutation', { recursive: true });
      writeFileSync(`reports/mutation/${group}.timing.md`, text);
    },
  };
}

export const strykerPlugins = [declareFactoryPlugin(PluginKind.Reporter, 'timing', timingReporter)];
