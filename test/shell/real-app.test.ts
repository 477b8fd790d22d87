import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SMOKE = join(ROOT, 'scripts', 'smoke-app.js');

/** scripts/smoke-app.js, under xvfb-run when there is no display but Xvfb is installed. */
function smoke(args: string[], timeout: number) {
  const xvfb = !process.env.DISPLAY && spawnSync('xvfb-run', ['--help'], { stdio: 'ignore' }).status === 0;
  const [command, argv] = xvfb
    ? ['xvfb-run', ['-a', process.execPath, SMOKE, ...args]]
    : [process.execPath, [SMOKE, ...args]];
  return spawnSync(command, argv, { cwd: ROOT, encoding: 'utf8', timeout });
}

describe('the desktop app for real (the release workflow runs this on a Linux runner under Xvfb)', () => {
  it('opens its window and tray, its bridge answers, and quitting closes it, answering an open ask', (ctx) => {
    const check = smoke(['--check'], 30_000);
    if (check.status !== 0) {
      return ctx.skip(`cannot run the real app here: ${check.stdout.trim() || check.stderr.trim()}`);
    }
    const run = smoke([], 280_000);
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('smoke: the desktop app passed');
  }, 300_000);
});
