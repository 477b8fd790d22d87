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
  // one page bundle per sandbox names the active mutant, so a browser group runs one mutant at a time
  concurrency: group.browser ? 1 : Number(process.env.AITI_MUTATE_CONCURRENCY ?? 1),
  incremental: process.env.AITI_MUTATE_FORCE !== '1',
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // a sandbox folder per group, so two groups may run at once
  tempDirName: `.stryker-tmp-${name}`,
  cleanTempDir: 'always',
  ignorePatterns: ['/dist', '/release', '/test-results', '/coverage', '/.tmp', '/.stryker-tmp*'],
  // the suite's own timeouts catch a hung test; this is for a mutant that makes a whole run hang
  timeoutMS: 60_000,
  timeoutFactor: 2,
  logLevel: 'info',
  fileLogLevel: 'off',
};

export default config;
