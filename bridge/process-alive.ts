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
  // gone between the signal and the read, or no /proc (not Linux): the signal's answer stands
  return processStat(pid)?.state !== 'Z';
}

/**
 * A Linux process's state letter (R, S, Z …) and process group, from /proc/<pid>/stat; undefined when it is gone
 * or there is no /proc. They follow the name in parentheses, which may itself hold any byte.
 */
export function processStat(pid: number): { state: string; group: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  const [state = '', , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, group: Number(group) };
}
