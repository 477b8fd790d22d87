import { readFileSync } from 'node:fs';

/**
 * Whether a process of that id is running (one of another user is, too). A zombie is not: it has ended and only
 * waits for its parent to read its exit status, which a container whose first process does not reap orphans
 * (a plain `docker run` without --init) never does, so its pid answers signal 0 for ever.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** Linux's /proc/<pid>/stat gives the state after the name in parentheses (which may itself hold any byte). */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    // gone between the signal and the read, or no /proc: the signal's answer stands
    return false;
  }
}
