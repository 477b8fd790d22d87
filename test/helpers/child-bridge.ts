import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './bridge.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
export const CHILD_TOKEN = 'reliability-token';

export interface ChildBridge {
  child: ChildProcess;
  url: string;
  port: number;
  stderr: () => string;
}

/**
 * A real bridge in a child process (so it can be SIGKILLed); resolves once it printed its URL on stderr. `port`
 * (default 0: any free one) lets a restart come back where pages and clients look for it; `args` are more flags.
 */
export async function spawnBridge(
  dataDir: string,
  options: { port?: number; args?: string[]; env?: Record<string, string> } = {},
): Promise<ChildBridge> {
  const args = [
    '--port',
    String(options.port ?? 0),
    '--data-dir',
    dataDir,
    '--token',
    CHILD_TOKEN,
    ...(options.args ?? []),
  ];
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AITI_LOG: 'warn', ...options.env },
  });
  onCleanup(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bridge did not start; stderr: ${stderr}`)), 30_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1]) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`bridge exited with ${code}; stderr: ${stderr}`)));
  });
  return { child, url, port: Number(new URL(url).port), stderr: () => stderr };
}

/** SIGKILL, and wait until the process is gone. */
export async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
