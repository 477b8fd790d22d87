import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const NEXT_BIN = fileURLToPath(new URL('../../node_modules/next/dist/bin/next', import.meta.url));

/** A Next.js dev server of a fixture, started as `next dev` is: its own process group, stopped with it. */
export interface NextServer {
  url: string;
  /** what it printed, for a failure message */
  log(): string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * `next dev` (Turbopack, or webpack with `bundler: 'webpack'`) in `root`, with the bridge URL the root layout's
 * script tag reads. Resolves once it says Ready; each bundler builds into its own distDir, so both can run.
 */
export async function startNext(
  root: string,
  bridgeUrl: string,
  bundler: 'turbopack' | 'webpack' = 'turbopack',
): Promise<NextServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [NEXT_BIN, 'dev', `--${bundler}`, '--hostname', '127.0.0.1', '--port', String(port)],
    {
      cwd: root,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        AITI_BRIDGE_URL: bridgeUrl,
        NEXT_DIST_DIR: bundler === 'webpack' ? '.next-webpack' : '.next',
        NEXT_TELEMETRY_DISABLED: '1',
        NODE_ENV: 'development',
      },
    },
  );
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next dev did not start within 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready in/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`next dev exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    log: () => output,
    async close() {
      if (child.exitCode === null && child.pid) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
        // the exit, or at most 5 s of it: a dev server that ignores SIGTERM is killed below
        await Promise.race([exited, once(AbortSignal.timeout(5000), 'abort')]);
        if (child.exitCode === null)
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {
            // already gone
          }
      }
    },
  };
}
