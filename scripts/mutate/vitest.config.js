// The vitest configuration of `npm run mutate`: the suite's own (vitest.config.ts), with the setup that activates
// Stryker's mutant before a test file's modules load, and without the JSON report `npm test` writes.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import suite from '../../vitest.config.ts';

export default defineConfig({
  ...suite,
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    ...suite.test,
    // type tests are not affected by a mutant
    typecheck: { enabled: false },
    setupFiles: ['scripts/mutate/activate-mutant.js'],
    reporters: ['default'],
    // A mutant often makes a test wait for what never comes, and the bridge it started then waits in afterEach for
    // a socket nobody answers: with the suite's 30 s per test and 60 s per hook each such mutant cost minutes. The
    // slowest passing test of a group takes ~6 s on this busy machine (a real Chromium; the dry run's slowest are
    // in reports/mutation/<group>.timing.md), and the group's hooks only close bridges and browsers.
    testTimeout: 15_000,
    hookTimeout: 20_000,
  },
});
