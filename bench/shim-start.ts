import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBridge } from '../bridge/bridge.js';
import { bareNode } from './cold-start.js';
import { percentile, round, type BenchRow } from './report.js';

const BIN = fileURLToPath(new URL('../bin/aiti-bridge.js', import.meta.url));
const RUNS = 10;

/** What an MCP client sends first: initialize, initialized, then tools/list (id 2). */
const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => JSON.stringify(m) + '\n')
  .join('');

/** From spawning the built shim (`aiti-bridge --stdio`) to its answer to tools/list on stdout. */
async function shimOnce(bridgeUrl: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, '--stdio'], {
    stdio: ['pipe', 'pipe', 'ignore'],
    env: { ...process.env, AITI_BRIDGE_URL: bridgeUrl, AITI_LOG: 'error' },
  });
  try {
    child.stdin.write(OPENING);
    return await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/"id":2,"result":\{"tools":\[/.test(out)) resolve(performance.now() - started);
      });
      child.on('exit', (code) => reject(new Error(`the shim exited with ${code} before answering tools/list: ${out}`)));
    });
  } finally {
    child.stdin.end();
    child.kill('SIGKILL');
  }
}

/** A loopback port nothing listens on (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Spawn → tools/list of the stdio shim, against a bare Node start measured in the same loop (interleaved). */
export async function shimStart(notes: string[] = []): Promise<BenchRow[]> {
  const nowhere = `http://127.0.0.1:${await freePort()}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'aiti-bench-'));
  const bridge = await createBridge({ port: 0, dataDir });
  try {
    await shimOnce(nowhere); // warm the OS file cache, as a client's second launch would be
    const bare: number[] = [];
    const down: number[] = [];
    const up: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bare.push(await bareNode());
      down.push(await shimOnce(nowhere));
      up.push(await shimOnce(bridge.url));
    }
    const node = round(percentile(bare, 50), 0);
    const limit = 3 * node;
    const row = (name: string, samples: number[]): BenchRow => {
      const value = round(percentile(samples, 50), 0);
      return {
        group: 'startup',
        name: `stdio shim: spawn → tools/list answered, ${name} (p50 of ${RUNS})`,
        value,
        unit: 'ms',
        target: `≤ 3× bare node (${node} ms in the same loop) = ${limit} ms`,
        met: value <= limit,
      };
    };
    const rows = [row('no bridge running', down), row('a bridge running', up)];
    if (rows.some((r) => !r.met)) {
      notes.push(
        `stdio shim start above 3× a bare Node start (${node} ms): the shim loads only its own modules (dist/bridge/shim, no server, no MCP SDK) and answers from the tool snapshot, so the rest is Node loading those files; a loaded machine widens the gap.`,
      );
    }
    return rows;
  } finally {
    await bridge.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
