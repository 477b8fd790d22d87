#!/usr/bin/env node
// Prints the plain closing line CI reads ("vitest: N passed, N failed, N skipped") from vitest's JSON report.
import { existsSync, readFileSync } from 'node:fs';

const file = process.argv[2] ?? 'test-results/vitest.json';
if (!existsSync(file)) {
  console.log('vitest: 0 passed, 1 failed');
  console.error(`test-summary: no report at ${file} (the test run stopped before vitest finished)`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`vitest: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
