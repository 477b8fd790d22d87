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
  },
});
