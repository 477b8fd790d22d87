import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './helpers/build-lock.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

// Runs inside a lock: rebuilds dist/bridge (the code bin/aiti-bridge.js runs, and the package ships) when it is
// missing or older than a bridge/ source, so a test that spawns the CLI never runs stale code. `npm test` has
// just built everything, so there this does nothing.
const CHECK_AND_BUILD = `
const { existsSync, readdirSync, statSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const outputs = ['dist/bridge/cli.js', 'dist/bridge/index.d.ts', 'dist/bridge/shim/tools.json'];
const sources = readdirSync('bridge', { recursive: true })
  .map((f) => 'bridge/' + f)
  .filter((f) => f.endsWith('.ts') && !f.startsWith('bridge/page-agent'));
const newest = Math.max(...sources.map((f) => statSync(f).mtimeMs));
const stale = outputs.some((f) => !existsSync(f) || statSync(f).mtimeMs < newest);
if (stale) execFileSync(process.execPath, ['scripts/build.js', 'bridge', 'types'], { stdio: 'inherit' });
`;

/** Vitest global setup: the built bridge is current before any test file starts. */
export default function setup(): void {
  withBuildLock(join(ROOT, 'node_modules', '.aiti-bridge-build.lock.d'), () =>
    execFileSync(process.execPath, ['-e', CHECK_AND_BUILD], { cwd: ROOT, stdio: 'inherit' }),
  );
}
