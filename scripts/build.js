#!/usr/bin/env node
// Builds everything the bridge serves or ships: the bridge itself (dist/bridge), and each further part's step.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { cwd: root, stdio: 'inherit' });
const tsc = fileURLToPath(new URL('../node_modules/typescript/bin/tsc', import.meta.url));

const steps = {
  bridge: () => {
    rmSync(new URL('../dist/bridge', import.meta.url), { recursive: true, force: true });
    run(process.execPath, [tsc, '-p', 'bridge/tsconfig.build.json']);
  },
  // the human window (dist/renderer), served by the bridge at /aiti/ui/ and loaded by the desktop app
  renderer: () => {
    const vite = fileURLToPath(new URL('../node_modules/vite/bin/vite.js', import.meta.url));
    run(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  },
};

const only = process.argv.slice(2);
for (const [name, step] of Object.entries(steps)) {
  if (only.length && !only.includes(name)) continue;
  const started = Date.now();
  step();
  console.error(`build: ${name} in ${Date.now() - started} ms`);
}
