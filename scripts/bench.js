#!/usr/bin/env node
// npm run bench: builds, then runs bench/run.ts through tsx (benchmarks are not part of npm test).
import { execFileSync } from 'node:child_process';

execFileSync(process.execPath, ['scripts/build.js'], { stdio: 'inherit' });
execFileSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
