import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { percentile, round, type BenchRow } from './report.js';

const BIN = fileURLToPath(new URL('../bin/aiti-bridge.js', import.meta.url));

/** From spawning the built headless bridge to its first answer on /bridge/health. */
async function once(): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aiti-bench-'));
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, '--port', '0', '--data-dir', dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    // the built bridge, as an installed package runs it
    env: { ...process.env, AITI_LOG: 'warn', AITI_USE_DIST: '1' },
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /listening on (http:\/\/\S+)/.exec(err);
        if (m?.[1]) resolve(m[1]);
      });
      child.on('exit', (code) => reject(new Error(`bridge exited with ${code}: ${err}`)));
    });
    const res = await fetch(`${url}/bridge/health`);
    if (!res.ok) throw new Error(`health answered ${res.status}`);
    return performance.now() - started;
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function coldStart(): Promise<BenchRow[]> {
  await once(); // warm the OS file cache, as a second launch would be
  const samples: number[] = [];
  for (let i = 0; i < 10; i++) samples.push(await once());
  const p50 = round(percentile(samples, 50), 0);
  return [
    {
      group: 'startup',
      name: 'cold start of the headless bridge to its first answer (p50 of 10, node process spawn included)',
      value: p50,
      unit: 'ms',
      target: '< 300 ms',
      met: p50 < 300,
    },
  ];
}
