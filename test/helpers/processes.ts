import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { onCleanup } from './bridge.js';
import { waitFor } from './wait.js';

/** The state letter of a Linux process (R, S, Z …), from /proc/<pid>/stat, or undefined when it is gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.charAt(stat.lastIndexOf(')') + 2);
  } catch {
    return undefined;
  }
}

/**
 * The processes of a process group that still run. Zombies do not: they ended, and in a container whose first
 * process does not reap orphans (this machine's, and CI's) one stays in its group for ever, answering signal 0.
 */
export function runningInGroup(pgid: number): number[] {
  const running: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') running.push(Number(name));
    } catch {
      // it ended while we looked
    }
  }
  return running;
}

/**
 * A zombie: a process that ended and whose parent (`sleep`, which never waits) does not collect it. Its pid answers
 * `kill(pid, 0)` as a running one does.
 */
export async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 0.01 & echo $!; exec sleep 60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  onCleanup(() => void parent.kill('SIGKILL'));
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (data: Buffer) => resolve(Number(data))),
  );
  await waitFor(() => processState(pid) === 'Z', 5_000, `process ${pid} a zombie`);
  return pid;
}
