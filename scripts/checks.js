#!/usr/bin/env node
// What `npm test` runs before vitest — lint, typecheck, build — at the same time: none needs another's output, and
// each is mostly one process on one core, so on CI's two cores this saves about a minute of the suite's time.
// Each one's output is printed whole when it ends, so two never interleave; the exit code is the first failure's.
import { spawn } from 'node:child_process';

const steps = [
  ['lint', 'npm', ['run', '--silent', 'lint']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['build', 'node', ['scripts/build.js']],
];

const runs = steps.map(
  ([name, command, args]) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('error', (error) => (output += `${error.message}\n`));
      child.on('close', (code) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        process.stdout.write(`\n── ${name}: ${code === 0 ? 'ok' : `failed (exit ${code})`} in ${seconds} s\n${output}`);
        resolve(code ?? 1);
      });
    }),
);

const codes = await Promise.all(runs);
process.exit(codes.find((code) => code !== 0) ?? 0);
