import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // the held-out forms (#39) were written to be run once after a page-agent change, not on every run: `npm run
    // test:heldout` runs them (about 2 minutes of the suite's time on two cores, which CI's limit cannot spare)
    exclude: [...configDefaults.exclude, ...(process.env.AITI_HELDOUT ? [] : ['test/fixtures-heldout/**'])],
    // type tests (*.test-d.ts: contracts only tsc can check) run through tsc in the same run, and fail it
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'], tsconfig: 'test/tsconfig.types.json' },
    // bin/aiti-bridge.js runs dist/: rebuild it first when a bridge source is newer; and one headless Chromium for
    // the run, whose fresh contexts the browser tests take (test/helpers/browser.ts): a third less time than a
    // Chromium launched per test, measured on test/page
    globalSetup: ['test/global-setup.ts', 'scripts/mutate/shared-chromium.js'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    // a test run from an SSH session or a Codespace must not turn --mcp-auth on by default (config.ts
    // sharedMachine): the tests that need it say so, and one checks the default with its own environment; and no
    // CLI a test starts asks npm's registry for a newer version (test/foundation/update-notice.test.ts: a stand-in)
    env: { AITI_LOG: 'warn', SSH_CONNECTION: '', CODESPACES: '', REMOTE_CONTAINERS: '', AITI_UPDATE_CHECK: '0' },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
