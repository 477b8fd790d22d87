// @ts-check
// Stryker's configuration for one group of scripts/mutate/groups.js, named by AITI_MUTATE_GROUP (scripts/mutate.js
// sets it and runs each group in turn). Paths are from the repository root, where Stryker runs.
import { GROUPS } from './groups.js';
import { mutatePatterns } from './scope.js';

const name = process.env.AITI_MUTATE_GROUP ?? '';
const group = GROUPS[name];
if (!group)
  throw new Error(`AITI_MUTATE_GROUP="${name}" is not a group; pick one of ${Object.keys(GROUPS).join(', ')}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutate/vitest.config.js', related: false },
  mutate: mutatePatterns(group.modules),
  testFiles: group.tests,
  // each mutant runs only the tests that reached it in the first run (browser code reports what the page
  // reached: scripts/mutate/activate-mutant.js)
  coverageAnalysis: 'perTest',
  // the child bridges some tests spawn run dist/bridge, and pages run dist/page/page.js: both are built here from
  // the mutated sources (scripts/mutate/build-sandbox.js)
  buildCommand: `node scripts/mutate/build-sandbox.js${group.browser ? ' page' : ''}`,
  // test runners side by side (a browser group's each serve their own page bundle: test/helpers/browser.ts):
  // the group's own number (groups.js) unless `npm run mutate -- --concurrency N` gives every group N
  concurrency: Number(process.env.AITI_MUTATE_CONCURRENCY ?? group.runners ?? 2),
  incremental: process.env.AITI_MUTATE_FORCE !== '1',
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  // timing: where the run spent its time, reports/mutation/<group>.timing.md (scripts/mutate/timing-reporter.js)
  plugins: ['@stryker-mutator/vitest-runner', './scripts/mutate/timing-reporter.js'],
  reporters: ['clear-text', 'progress-append-only', 'json', 'html', 'timing'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // a sandbox folder per group, so two groups may run at once
  tempDirName: `.stryker-tmp-${name}`,
  cleanTempDir: 'always',
  ignorePatterns: ['/dist', '/release', '/test-results', '/coverage', '/.tmp', '/.stryker-tmp*', '/.cache'],
  // A mutant that makes a test wait forever (an upgrade never answered, a socket never closed) fails that test
  // after the mutation run's own test and hook timeouts (scripts/mutate/vitest.config.js: 15 s, 20 s), and counts
  // as killed without a new test runner. Stryker's limit, factor × the covering tests' time + this + the dry
  // run's overhead, is for a run that hangs past them: it ends as a Timeout, and the runner is started again.
  timeoutMS: group.timeoutMS ?? 30_000,
  timeoutFactor: 1.5,
  logLevel: 'info',
  fileLogLevel: 'off',
};

export default config;
