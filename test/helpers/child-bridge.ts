import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './bridge.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
export const CHILD_TOKEN = 'reliability-token';

/**
 * A real bridge in a child process (so it can be SIGKILLed); resolves once it printed its URL on stderr. `port`
 * restarts one where a killed one was (a window reconnects to the address it was served from).
 */
export async function spawnBridge(
  dataDir: string,
  port = 0,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const args = [BIN, '--port', String(port), '--data-dir', dataDir, '--token', CHILD_TOKEN];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AITI_LOG: 'warn' },
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
  return { child, url, stderr: () => stderr };
}

/** SIGKILL, and wait until the process is gone. */
export async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
