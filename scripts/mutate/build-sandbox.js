#!/usr/bin/env node
// Stryker's build command (scripts/mutate/stryker.config.mjs), run once in the sandbox after the sources were
// instrumented. Builds what tests run besides the sources they import: dist/bridge (the CLI a test spawns runs
// the mutant named in __STRYKER_ACTIVE_MUTANT__, which its environment carries) and the page bundle.
// With `page`, the page agent is one of the mutated groups: its instrumented bundle is kept as
// dist/page/page.instrumented.js, and each test file's setup hands it to the tests' browser with the active
// mutant named first (scripts/mutate/activate-mutant.js, test/helpers/browser.ts).
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const run = (/** @type {string[]} */ steps) =>
  execFileSync(process.execPath, ['scripts/build.js', ...steps], {
    stdio: 'inherit',
    env: { ...process.env, AITI_LOG: 'warn' },
  });

run(['bridge', 'page']);
// the type declarations tests check dist/ by (test/global-setup.ts); Stryker links node_modules into the sandbox
// only after this command, so tsc is found the way Node finds packages: in a folder above
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'bridge/tsconfig.build.json'], { stdio: 'inherit' });
if (process.argv.includes('page')) copyFileSync('dist/page/page.js', 'dist/page/page.instrumented.js');
