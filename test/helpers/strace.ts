import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { onCleanup, tempDir } from './bridge.js';

/** Whether strace can trace a process here (it is installed, and ptrace is allowed). */
function straceWorks(): string | undefined {
  try {
    execFileSync('strace', ['-o', '/dev/null', '-e', 'trace=getpid', 'true'], { stdio: 'ignore' });
    return undefined;
  } catch (error) {
    return `strace cannot trace here (${(error as Error).message.split('\n')[0] ?? ''}); install it (apt-get install strace) and allow ptrace to run this test`;
  }
}

let checked: string | undefined | null = null;

/** Skips the test, visibly and with the reason, where strace cannot run (CI installs it: .ci/run). */
export function needStrace(ctx: TestContext): void {
  if (checked === null) checked = straceWorks();
  if (checked !== undefined) ctx.skip(checked);
}

/**
 * strace attached to a running process and all its threads (libuv's pool too), with `args` (e.g. ['-e',
 * 'inject=fsync:error=EIO:when=2']); resolves once it is attached. `stop()` detaches it (ends strace by its pid).
 */
export async function attach(
  pid: number,
  args: string[],
): Promise<{ stop: () => Promise<void>; output: () => string }> {
  const out = join(tempDir('aiti-strace-'), 'trace');
  const strace = spawn('strace', ['-f', '-qq', '-o', out, ...args, '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const stop = async () => {
    if (strace.exitCode !== null || strace.signalCode !== null) return;
    const exited = new Promise((resolve) => strace.once('exit', resolve));
    strace.kill('SIGINT');
    await exited;
  };
  onCleanup(stop);
  await attached(strace, pid);
  return { stop, output: () => readAll(out) };
}

/** Waits until strace has stopped the process once (it traces it from then on). */
async function attached(strace: ChildProcess, pid: number): Promise<void> {
  // strace attaches synchronously before its first output; /proc says when the process is being traced
  for (let i = 0; i < 500; i++) {
    if (strace.exitCode !== null) throw new Error(`strace exited with ${strace.exitCode} before it attached to ${pid}`);
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const tracer = /TracerPid:\s*(\d+)/.exec(status)?.[1];
      if (tracer && tracer !== '0') return;
    } catch {
      // not there yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`strace did not attach to ${pid}`);
}

/** strace's output, one file per thread when it wrote with -ff (`trace.<tid>`), else the one file. */
function readAll(out: string): string {
  const dir = join(out, '..');
  return readdirSync(dir)
    .filter((name) => name === 'trace' || name.startsWith('trace.'))
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');
}
