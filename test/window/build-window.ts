import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const built = join(root, 'dist', 'renderer', 'index.html');
const lock = join(root, 'dist', '.renderer-build-lock');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function isFresh(): boolean {
  try {
    const sources = Math.max(newest(join(root, 'renderer')), newest(join(root, 'bridge', 'protocol')));
    return statSync(built).mtimeMs >= sources;
  } catch {
    return false;
  }
}

/**
 * The bridge serves whatever dist/renderer holds: build the window from these sources when they are newer than
 * the build. One build at a time (test files run in parallel), and none while it is fresh, so a build never
 * empties dist/renderer under a test that is using it.
 */
export async function ensureWindowBuilt(): Promise<void> {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const until = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() > until) throw new Error(`${lock} is held for 2 minutes; remove it if no build is running`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (!isFresh()) execFileSync(process.execPath, ['scripts/build.js', 'renderer'], { cwd: root, stdio: 'inherit' });
  } finally {
    rmdirSync(lock);
  }
}
