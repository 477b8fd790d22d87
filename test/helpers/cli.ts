import { execFile } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';

/** The built CLI the package ships (test/global-setup.ts builds it first). */
export const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

/** Runs the real CLI; resolves with its exit code and output whatever the code. */
export function cli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', AITI_LOG: 'warn', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

/** Calls `onLine` with each whole line a child process writes on `stream`. */
export function eachLine(stream: Readable, onLine: (line: string) => void): void {
  let raw = '';
  stream.on('data', (chunk: Buffer) => {
    raw += chunk.toString();
    let newline: number;
    while ((newline = raw.indexOf('\n')) !== -1) {
      const line = raw.slice(0, newline);
      raw = raw.slice(newline + 1);
      if (line) onLine(line);
    }
  });
}
