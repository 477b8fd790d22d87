import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { processStat } from '../../bridge/process-alive.js';
import { onCleanup } from './bridge.js';
import { waitFor } from './wait.js';

/**
 * The processes of a process group that still run. Zombies do not: they ended, and in a container whose first
 * process does not reap orphans (this machine's, and CI's) one stays in its group for ever, answering signal 0.
 */
export function runningInGroup(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const stat = processStat(pid);
      return stat?.group === pgid && stat.state !== 'Z';
    });
}

/** Each process as `pid state command line`, to say which ones a test found still running. */
export function describeProcesses(pids: number[]): string {
  return pids
    .map((pid) => {
      let command = '?';
      try {
        command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      } catch {
        // gone since
      }
      return `${pid} ${processStat(pid)?.state ?? 'gone'} ${command}`;
    })
    .join('; ');
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
  await waitFor(() => processStat(pid)?.state === 'Z', 5_000, `process ${pid} a zombie`);
  return pid;
}
