// The vitest configuration of `npm run mutate`: the suite's own (vitest.config.ts), with the setup that activates
// Stryker's mutant before a test file's modules load, and without the JSON report `npm test` writes.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import suite from '../../vitest.config.ts';
import { GROUPS } from './groups.js';
import FailFastSequencer from './sequencer.js';

// the group Stryker runs (scripts/mutate/stryker.config.mjs), for its own test time limit
const group = GROUPS[process.env.AITI_MUTATE_GROUP ?? ''];
const testTimeout = group?.testTimeoutMS ?? 15_000;
const browser = group?.browser ?? false;

export default defineConfig({
  ...suite,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    ...suite.test,
    // type tests are not affected by a mutant
    typecheck: { enabled: false },
    setupFiles: ['scripts/mutate/activate-mutant.js'],
    // The test files of one mutant share one worker (Stryker's runner already runs them one after another), so
    // the packages they import load once per mutant, not once per file: the guards group's files ran in 13.0 s
    // instead of 22.8 s here (imports 3.0 s instead of 8.8 s). The setup file above resets the project's own
    // modules before each file, so each file evaluates them afresh (the mutant active, its hooks registered);
    // vitest ends the worker when the mutant's run ends, so nothing a mutant leaves running reaches the next.
    isolate: false,
    // the file that killed the previous mutant first, then the cheapest per kill (scripts/mutate/sequencer.js)
    sequence: { ...suite.test?.sequence, sequencer: FailFastSequencer },
    // a browser group's tests share one Chromium, launched once for the run (shared-chromium.js)
    globalSetup: [...[suite.test?.globalSetup ?? []].flat(), ...(browser ? ['scripts/mutate/shared-chromium.js'] : [])],
    reporters: ['default'],
    // A mutant often makes a test wait for what never comes, and the bridge it started then waits in afterEach for
    // a socket nobody answers: with the suite's 30 s per test and 60 s per hook each such mutant cost minutes.
    // Outside the browser groups (their own limit, groups.js) the slowest passing test takes ~6 s on this busy
    // machine (the dry run's slowest are in reports/mutation/<group>.timing.md); hooks start and close bridges
    // and browsers.
    testTimeout,
    hookTimeout: Math.max(20_000, testTimeout),
  },
});
