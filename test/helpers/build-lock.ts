import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../../bridge/process-alive.js';

/** Whether the process that wrote `lock/pid` is gone (the run was killed while it built; a zombie is gone). */
function abandoned(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(lock, 'pid'), 'utf8'));
  } catch {
    return false; // just taken: its pid is on its way
  }
  return !isRunning(pid);
}

/**
 * Runs `work` while holding the lock folder `lock` (mkdir is atomic on every OS, unlike flock, which macOS and
 * Windows lack): test files running in parallel build one at a time and never delete what another is reading.
 * A lock whose holder died is taken over.
 */
export function withBuildLock<T>(lock: string, work: () => T, waitMs = 5 * 60_000): T {
  const until = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > until) throw new Error(`${lock} is still held after ${waitMs / 1000} s`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
