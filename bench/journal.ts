import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Inbox } from '../bridge/inbox/inbox.js';
import { Journal } from '../bridge/inbox/journal.js';
import { openInbox } from '../bridge/inbox/setup.js';
import { createLogger } from '../bridge/log.js';
import type { Message } from '../bridge/protocol/index.js';
import { connectMcp } from './agent.js';
import { spawnBridge } from './bridge-process.js';
import { round, type BenchRow } from './report.js';

const log = createLogger('bench', 'silent');
const TEXT = 'Please rename the Save button to "Save draft" and keep the shortcut.'; // a typical push

/** Pushes `total` messages through Inbox.add (journal append + fsync group commit), `inFlight` at a time. */
async function inboxThroughput(total: number, inFlight: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'aiti-bench-journal-'));
  const inbox = new Inbox(new Journal({ dir, bridgeVersion: 'bench', log }));
  try {
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < total) {
        const i = next++;
        await inbox.add(`agent-${i % 8}`, { kind: 'user_message', from: 'window', text: `${TEXT} #${i}` });
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    return total / ((performance.now() - started) / 1000);
  } finally {
    inbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pushes over HTTP to the bridge in its own process (POST /bridge/push), `inFlight` requests at a time. */
async function httpThroughput(total: number, inFlight: number): Promise<number> {
  const bridge = await spawnBridge();
  const agent = await connectMcp(bridge.url, 'bench-push', 'streamable');
  try {
    let next = 0;
    const push = async (i: number) => {
      const res = await fetch(`${bridge.url}/bridge/push`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: 'bench-push', text: `${TEXT} #${i}` }),
      });
      if (res.status !== 200) throw new Error(`push answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (let i = 0; i < 200; i++) await push(i); // warm up
    const started = performance.now();
    const worker = async () => {
      while (next < total) await push(next++);
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    return total / ((performance.now() - started) / 1000);
  } finally {
    await agent.close().catch(() => undefined);
    await bridge.stop();
  }
}

/**
 * Writes `total` message lines with the real Journal (its files, rollover and fsync), over 10 agents, then
 * times a bridge start's replay of them: openInbox (Journal.replay parses and validates each line, Inbox.replay
 * rebuilds every inbox).
 */
async function replay(total: number): Promise<{ ms: number; mib: number; files: number }> {
  const appDir = mkdtempSync(join(tmpdir(), 'aiti-bench-replay-'));
  try {
    const journal = new Journal({ dir: join(appDir, 'sessions'), bridgeVersion: 'bench', log });
    const at = Date.now() - total;
    const BATCH = 20_000;
    for (let from = 0; from < total; from += BATCH) {
      const writes: Array<Promise<void>> = [];
      for (let i = from; i < Math.min(total, from + BATCH); i++) {
        const agentId = `agent-${i % 10}`;
        const message: Message = {
          id: `m${i.toString(36).padStart(8, '0')}bench`,
          kind: 'user_message',
          from: 'window',
          agentId,
          text: `${TEXT} #${i}`,
          at: new Date(at + i).toISOString(),
          status: 'pending',
        };
        writes.push(journal.append(agentId, { type: 'message', message }));
        // a third of the messages were read and acknowledged, as in a real journal
        if (i % 3 === 0) {
          writes.push(
            journal.append(agentId, { type: 'status_change', id: message.id, status: 'consumed', at: message.at }),
          );
        }
      }
      await Promise.all(writes);
    }
    journal.close();
    let bytes = 0;
    let files = 0;
    const sessions = join(appDir, 'sessions');
    for (const agent of readdirSync(sessions)) {
      for (const name of readdirSync(join(sessions, agent))) {
        bytes += statSync(join(sessions, agent, name)).size;
        files++;
      }
    }
    const started = performance.now();
    const inbox = openInbox({ appDir, version: 'bench', log });
    const ms = performance.now() - started;
    const replayed = inbox
      .status()
      .agents.reduce((n, a) => n + a.counts.pending + a.counts.delivered + a.counts.consumed, 0);
    inbox.close();
    if (replayed !== total) throw new Error(`replayed ${replayed} of ${total} messages`);
    return { ms, mib: bytes / 2 ** 20, files };
  } finally {
    rmSync(appDir, { recursive: true, force: true });
  }
}

export async function journalBench(notes: string[]): Promise<BenchRow[]> {
  const group = 'inbox journal';
  const inProcess = await inboxThroughput(50_000, 256);
  const oneAtATime = await inboxThroughput(2_000, 1);
  const overHttp = await httpThroughput(10_000, 64);
  const small = await replay(100_000);
  const large = await replay(1_000_000);
  notes.push(
    `inbox journal: throughput is measured in-process through the real Inbox.add (a JSONL line written at once, the promise resolving after the fsync of a group commit) with 256 pushes in flight over 8 agents, and separately with one push at a time (one fsync each: the disk's fsync latency bounds it). HTTP push is POST /bridge/push to the bridge in its own process, 64 requests in flight from the benchmark process, to one connected agent (inbox delivery). Replay journals were written by the real Journal class (10 agents, files rolled at 2 MB, one status_change "consumed" line for every third message; ${small.files} files / ${round(small.mib, 1)} MiB for 100k, ${large.files} files / ${round(large.mib, 1)} MiB for 1M) and timed as openInbox, what the bridge runs before it listens.`,
  );
  return [
    {
      group,
      name: 'push → journaled, in-process Inbox.add, fsync on (256 in flight)',
      value: Math.round(inProcess),
      unit: 'msg/s',
      target: '≥ 20,000 msg/s',
      met: inProcess >= 20_000,
    },
    { group, name: 'push → journaled, one at a time (one fsync each)', value: Math.round(oneAtATime), unit: 'msg/s' },
    {
      group,
      name: 'push over HTTP, POST /bridge/push (64 in flight)',
      value: Math.round(overHttp),
      unit: 'msg/s',
      target: '≥ 20,000 msg/s',
      met: overHttp >= 20_000,
    },
    { group, name: 'journal replay, 100k messages', value: round(small.ms / 1000, 2), unit: 's' },
    {
      group,
      name: 'journal replay, 1M messages',
      value: round(large.ms / 1000, 2),
      unit: 's',
      target: '< 5 s',
      met: large.ms < 5000,
    },
  ];
}
