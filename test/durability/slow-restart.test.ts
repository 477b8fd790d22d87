import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN } from '../helpers/child-bridge.js';
import { BIN } from '../helpers/cli.js';
import { connectAgent } from '../helpers/mcp.js';
import { needStrace } from '../helpers/strace.js';
import { waitFor } from '../helpers/wait.js';
import { windowState } from '../helpers/window.js';

/**
 * Finding 5 of issue 37: calls hung across a slow restart. The official SDK client resumes a broken Streamable HTTP
 * stream twice, `retry` apart; a bridge back only after both were refused left the call waiting for its time-out
 * (10 of 15,586 calls, every one across a restart of 6 s or more). Here the bridge is SIGKILLed 20 times under load
 * — agents waiting on asks, agents calling quick tools, pushes — and every restart is made slow on purpose: each
 * file the new process opens waits 12 ms (strace), some 8 s to load the server and replay. No call may wait for its
 * client's time-out: the bridge takes its port before it loads (connections wait), so each resume is answered; and a
 * session the restart forgot (its line was still to be written) has the resume of its call's stream answered "lost",
 * not 404, which the SDK client would give up on (forgotten-session.test.ts shows that one alone).
 */

/**
 * 20 restarts is what the issue asks for (AITI_SLOW_RESTARTS=20, some 4 minutes); the suite runs three, each as slow
 * as the ones that hung, so it stays cheap in CI.
 */
const RESTARTS = Number(process.env.AITI_SLOW_RESTARTS) || 3;
const AGENTS = 3;
/** the SDK client's own time-out for these calls: a call that reaches it hung */
const CLIENT_TIMEOUT_MS = 40_000;
/** each ask ends by itself well before that (the human never answers here), unless a restart lost it */
const ASK_TIMEOUT_MS = 15_000;

interface Slow {
  strace: ChildProcess;
  url: string;
  /** the bridge's own process (strace's child) */
  pid: number;
}

/** The bridge under strace, every openat of it 12 ms late; resolves once it serves. */
async function slowBridge(dataDir: string, port: number): Promise<Slow> {
  const strace = spawn(
    'strace',
    [
      '-f',
      '-qq',
      '--seccomp-bpf',
      '-o',
      '/dev/null',
      '-e',
      'trace=openat',
      '-e',
      'inject=openat:delay_enter=12000',
      process.execPath,
      BIN,
      '--port',
      String(port),
      '--data-dir',
      dataDir,
      '--token',
      CHILD_TOKEN,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, AITI_LOG: 'warn' } },
  );
  onCleanup(() => void strace.kill('SIGKILL'));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    strace.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(stderr);
      if (found?.[1]) resolve(found[1]);
    });
    strace.on('exit', (code) => reject(new Error(`the bridge did not start (${code}): ${stderr}`)));
  });
  const children = readFileSync(`/proc/${strace.pid}/task/${strace.pid}/children`, 'utf8').trim().split(' ');
  const pid = Number(children[0]);
  onCleanup(() => {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  });
  return { strace, url, pid };
}

const openAsks = async (url: string) => (await windowState(url, CHILD_TOKEN)).asks.length;

describe('calls across slow restarts (issue 37, finding 5)', () => {
  it(`over ${RESTARTS} SIGKILL restarts under load, no SDK Streamable HTTP call waits for its client's time-out`, async (ctx) => {
    needStrace(ctx);
    const dataDir = tempDir();
    let bridge = await slowBridge(dataDir, 0);
    const port = Number(new URL(bridge.url).port);
    let stop = false;
    const calls = { started: 0, settled: 0, timedOut: [] as string[], pending: new Set<Promise<unknown>>() };
    /** One call, timed by the client as an agent's is; a call that reaches the time-out is what this test forbids. */
    const call = (agent: Client, name: string, args: Record<string, unknown>) => {
      calls.started++;
      const done = agent
        .callTool({ name, arguments: args }, undefined, { timeout: CLIENT_TIMEOUT_MS })
        .catch((error: Error) => {
          if (/timed out/i.test(error.message)) calls.timedOut.push(`${name}: ${error.message}`);
          return undefined;
        })
        .finally(() => {
          calls.settled++;
          calls.pending.delete(done);
        });
      calls.pending.add(done);
      return done;
    };
    const connect = (name: string) => connectAgent(bridge.url, { clientName: name });
    // agents that ask the human and wait: their call is in flight on a stream when the bridge dies
    const askers = async (i: number) => {
      let agent = await connect(`asker-${i}`);
      while (!stop) {
        const result = await call(agent, 'user_confirm', { prompt: `go on #${i}?`, timeoutMs: ASK_TIMEOUT_MS });
        // a session the restart could not restore: a new one, as a client would
        if (!result || (result as { isError?: boolean }).isError)
          agent = await connect(`asker-${i}`).catch(() => agent);
      }
    };
    // agents calling quick tools one after the other, and the human pushing
    const busy = async (i: number) => {
      let agent = await connect(`busy-${i}`);
      while (!stop) {
        const result = await call(agent, i % 2 ? 'bridge_status' : 'aiti_inbox', {});
        if (!result) agent = await connect(`busy-${i}`).catch(() => agent);
      }
    };
    const pusher = async () => {
      while (!stop)
        await http(`${bridge.url}/bridge/push`, { token: CHILD_TOKEN, body: { to: 'all', text: 'keep going' } }).catch(
          () => new Promise((resolve) => setTimeout(resolve, 200)),
        );
    };
    const load = [
      ...Array.from({ length: AGENTS }, (_, i) => askers(i)),
      ...Array.from({ length: AGENTS }, (_, i) => busy(i)),
      pusher(),
    ];

    for (let restart = 0; restart < RESTARTS; restart++) {
      // every asker's call is in flight: its question is on the human's screen
      await waitFor(async () => (await openAsks(bridge.url).catch(() => 0)) >= AGENTS, 60_000, `${AGENTS} open asks`);
      process.kill(bridge.pid, 'SIGKILL');
      await new Promise((resolve) => bridge.strace.once('exit', resolve));
      bridge = await slowBridge(dataDir, port);
    }
    stop = true;
    // what is still in flight settles, one way or the other, before its time-out
    await Promise.all([...calls.pending]);
    // the load loops end with their current call, which settles before its time-out
    await Promise.all(load);
    expect(calls.started).toBeGreaterThan(RESTARTS * AGENTS);
    expect(calls.timedOut).toEqual([]);
  }, 900_000);
});
