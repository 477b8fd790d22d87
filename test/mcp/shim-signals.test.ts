import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));
/** a crash: an unhandled error, or a stack frame line ("    at fn (file.js:1:2)"), not a warning that names a URL */
const CRASH = /Unhandled|Error:|^\s+at .+:\d+:\d+\)?$/m;
/** nothing listens on port 9 of loopback (discard, never served here): the shim runs with no bridge */
const NO_BRIDGE = 'http://127.0.0.1:9';

function shimEnv(url: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', AITI_BRIDGE_URL: url, AITI_LOG: 'warn' };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'signals', version: '1' } },
};

/** The shim as an MCP client launches it: stdin, stdout and stderr are pipes the client holds open. */
async function launchShim(url: string): Promise<{ child: ChildProcess; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'], env: shimEnv(url) });
  onCleanup(() => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // it is up once it answers initialize
  const answered = new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  child.stdin?.write(JSON.stringify(INITIALIZE) + '\n');
  await answered;
  return { child, stderr: () => stderr };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null)
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** Whether the process runs (an exited one its new parent has not reaped yet counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

describe('the stdio shim is a good child process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`exits on ${signal} while its client still holds stdin open`, async () => {
      const bridge = await startBridge();
      const { child, stderr } = await launchShim(bridge.url);
      child.kill(signal);
      // stdin stays open: only the signal can end it
      expect(await exited(child)).toEqual({ code: 0, signal: null });
      expect(stderr()).not.toMatch(CRASH);
    });
  }

  it('exits on SIGTERM with no bridge running', async () => {
    const { child } = await launchShim(NO_BRIDGE);
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: 0, signal: null });
  });

  it('exits quietly when whoever read its stdout went away (EPIPE), instead of running on or crashing', async () => {
    const { child, stderr } = await launchShim(NO_BRIDGE);
    // the client closed its end of the stdout pipe; its stdin is still open
    child.stdout?.destroy();
    child.stdin?.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) + '\n');
    const { code } = await exited(child);
    expect(code).toBe(0);
    expect(stderr()).not.toMatch(CRASH);
  });

  it('exits when its parent process dies, even though its stdin stays open', async () => {
    // the shim reads a FIFO that this test also holds open for writing, so its stdin never ends; its parent
    // launches it, prints its pid, and is then killed without a chance to close anything
    const dir = tempDir();
    const fifo = join(dir, 'stdin');
    const answers = join(dir, 'stdout');
    execFileSync('mkfifo', [fifo]);
    const writer = openSync(fifo, 'r+');
    onCleanup(() => closeSync(writer));
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const { openSync } = require('node:fs');
         const stdio = [openSync(${JSON.stringify(fifo)}, 'r'), openSync(${JSON.stringify(answers)}, 'w'), 'ignore'];
         const c = require('node:child_process').spawn(process.execPath, [${JSON.stringify(BIN)}, '--stdio'], { stdio });
         process.stdout.write(String(c.pid) + '\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'], env: shimEnv(NO_BRIDGE) },
    );
    onCleanup(() => void (parent.exitCode === null && parent.signalCode === null && parent.kill('SIGKILL')));
    const pid = await new Promise<number>((resolve) =>
      parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    );
    onCleanup(() => void (alive(pid) && process.kill(pid, 'SIGKILL')));
    writeSync(writer, JSON.stringify(INITIALIZE) + '\n');
    await waitFor(() => readFileSync(answers, 'utf8').includes('"id":1'), 10_000, 'the shim answered initialize');
    parent.kill('SIGKILL');
    await exited(parent);
    await waitFor(() => !alive(pid), 10_000, 'the orphaned shim exited');
  });
});
