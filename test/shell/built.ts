import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from '../helpers/build-lock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Runs inside the lock: rebuilds dist/electron only when an output is missing or older than the electron/ and bridge/ sources it bundles, so
// test files running in parallel never delete the bundle another one is reading.
const CHECK_AND_BUILD = `
const { existsSync, readdirSync, statSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const outputs = ['dist/electron/main.js', 'dist/electron/preload.cjs', 'dist/cli/bin/aiti-bridge.mjs'];
const sources = ['electron', 'bridge'].flatMap((dir) =>
  readdirSync(dir, { recursive: true }).map((f) => dir + '/' + f).filter((f) => f.endsWith('.ts')),
);
const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
const stale = outputs.some((f) => !existsSync(f) || statSync(f).mtimeMs < newest);
if (stale) execFileSync(process.execPath, ['scripts/build.js', 'electron'], { stdio: 'ignore' });
`;

/** Makes sure dist/electron (main.js, preload.cjs) and dist/cli are built from the current electron/ sources. */
export function ensureElectronBuilt(): void {
  withBuildLock(join(ROOT, 'node_modules', '.aiti-electron-build.lock.d'), () =>
    execFileSync(process.execPath, ['-e', CHECK_AND_BUILD], { cwd: ROOT, stdio: 'inherit' }),
  );
}
