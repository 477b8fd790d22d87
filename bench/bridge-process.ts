import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** AITI_BENCH_BIN runs another build of the bridge (an A/B comparison against main's, say). */
export const BIN = process.env.AITI_BENCH_BIN || fileURLToPath(new URL('../bin/aiti-bridge.js', import.meta.url));
export const BENCH_TOKEN = 'bench-token';

/** The built bridge in its own process, so what it costs (RSS, CPU) is its own and not the benchmark's. */
export interface BridgeProcess {
  url: string;
  token: string;
  child: ChildProcess;
  dataDir: string;
  /** resident memory of the bridge process, in MiB */
  rssMiB(): number;
  /** CPU time the bridge process used so far (user + system), in seconds */
  cpuSeconds(): number;
  /** the same, split: user (JavaScript, V8) and system (the kernel: sockets, files) */
  cpuSplit(): { user: number; system: number };
  stop(): Promise<void>;
}

export async function spawnBridge(
  options: { dataDir?: string; env?: Record<string, string>; bin?: string } = {},
): Promise<BridgeProcess> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'aiti-bench-'));
  // AITI_BENCH_PROFILE=<dir>: the bridge writes a V8 CPU profile there when it stops (open it in Chrome DevTools)
  const profile = process.env.AITI_BENCH_PROFILE;
  const nodeArgs = profile ? ['--cpu-prof', '--cpu-prof-dir', profile] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, options.bin ?? BIN, '--port', '0', '--data-dir', dataDir, '--token', BENCH_TOKEN],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, AITI_LOG: 'warn', AITI_USE_DIST: '1', ...options.env },
    },
  );
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m?.[1]) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`bridge exited with ${code}: ${stderr}`)));
  });
  const pid = child.pid ?? 0;
  return {
    url,
    token: BENCH_TOKEN,
    child,
    dataDir,
    rssMiB: () => rssMiB(pid),
    cpuSeconds: () => cpuSeconds(pid),
    cpuSplit: () => cpuSplit(pid),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** VmRSS of a process from /proc (Linux). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** utime + stime of a process from /proc/<pid>/stat (Linux; clock ticks of 1/100 s). */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuSplit(pid);
  return user + system;
}

export function cpuSplit(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // after "pid (comm) ", utime and stime are the 12th and 13th fields
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}
