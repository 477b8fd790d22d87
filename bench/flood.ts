import { randomUUID } from 'node:crypto';
import { get } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, connectMcp } from './agent.js';
import { spawnBridge, type BridgeProcess } from './bridge-process.js';
import { LightPage } from './light-page.js';
import { percentile, round, type BenchRow } from './report.js';
import { claimPage, openPageStream } from '../test/helpers/page-wire.js';

const CLAIMS = 6000;
const STREAMS = 5000;
const CONCURRENCY = 20;

/** One agent's page_exec round trip, p50 over `n` calls. */
async function roundTrip(agent: Client, page: LightPage, n: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await call(agent, 'page_exec', { pageId: page.pageId, cmd: 'DOM.getText', args: { target: `css=#f${i}` } });
    samples.push(performance.now() - t0);
  }
  return percentile(samples, 50);
}

/** `count` claims from one HTTP client, CONCURRENCY at a time; returns how many were refused with 429/503. */
async function claimFlood(url: string, origin: string, count: number): Promise<number> {
  let refused = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++;
        const res = await fetch(`${url}/bridge/claim`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin },
          body: JSON.stringify({ instanceId: randomUUID(), pageKey: 'k', url: `${origin}/` }),
        });
        await res.text();
        if (res.status === 429 || res.status === 503) refused++;
      }
    }),
  );
  return refused;
}

/** A window that stopped reading: it must not make the bridge buffer the flood for it. */
function stalledWindow(bridge: BridgeProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    get(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`, (res) => {
      res.pause();
      resolve();
    }).on('error', reject);
  });
}

/**
 * Issue 16's flood: 6,000 claims from one client (a foreign origin, then loopback) while an agent drives a page
 * and one window is stalled; then 5,000 page streams opened and closed. Measures the agent's round trip against
 * its idle value, the bridge's peak RSS, and how long /bridge/health takes afterwards.
 */
export async function floodBench(notes: string[]): Promise<BenchRow[]> {
  const bridge = await spawnBridge();
  let sampler: NodeJS.Timeout | undefined;
  try {
    const agent = await connectMcp(bridge.url, 'flood-agent', 'streamable');
    const page = await LightPage.connect(bridge.url, 0);
    await roundTrip(agent, page, 50);
    const idle = await roundTrip(agent, page, 200);
    await stalledWindow(bridge);

    let peak = bridge.rssMiB();
    sampler = setInterval(() => (peak = Math.max(peak, bridge.rssMiB())), 50);
    const during: number[] = [];
    let flooding = true;
    const measuring = (async () => {
      while (flooding) during.push(await roundTrip(agent, page, 10));
    })();
    const started = performance.now();
    const refusedForeign = await claimFlood(bridge.url, 'http://evil.example:5000', CLAIMS);
    const refusedLoopback = await claimFlood(bridge.url, 'http://localhost:3000', CLAIMS);
    const floodSeconds = (performance.now() - started) / 1000;
    flooding = false;
    await measuring;
    const after = await roundTrip(agent, page, 200);

    // 5,000 page streams opened and closed, 100 at a time, each a page of its own on one loopback origin
    const streamsStarted = performance.now();
    for (let from = 0; from < STREAMS; from += 100) {
      const opened = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const { instanceId, claim } = await claimPage(bridge.url, { url: `http://127.0.0.1:4000/${from + i}` });
          return openPageStream(bridge.url, { instanceId, secret: claim.secret }, 30_000);
        }),
      );
      for (const stream of opened) stream.close();
    }
    const streamsSeconds = (performance.now() - streamsStarted) / 1000;
    const t0 = performance.now();
    const health = await fetch(`${bridge.url}/bridge/health`);
    await health.text();
    const healthMs = performance.now() - t0;
    clearInterval(sampler);

    const duringP50 = percentile(during, 50);
    notes.push(
      `flood: ${CLAIMS} claims from a foreign origin (${refusedForeign} refused: held-origin limit) and ${CLAIMS} from a loopback origin (${refusedLoopback} refused; the rest replaced that origin's oldest closed pages) in ${round(floodSeconds, 1)} s from one HTTP client, ${CONCURRENCY} at a time, with one window stalled; then ${STREAMS} page streams opened and closed in ${round(streamsSeconds, 1)} s.`,
    );
    await agent.close();
    page.close();
    return [
      { group: 'flood', name: 'agent round trip idle (page_exec p50)', value: round(idle), unit: 'ms' },
      {
        group: 'flood',
        name: `agent round trip during ${CLAIMS * 2} claims (p50 of 10-call p50s)`,
        value: round(duringP50),
        unit: 'ms',
        target: `< 2 × idle (${round(2 * idle)} ms)`,
        met: duringP50 < 2 * idle,
      },
      {
        group: 'flood',
        name: 'agent round trip after the flood (page_exec p50)',
        value: round(after),
        unit: 'ms',
        target: `< 2 × idle (${round(2 * idle)} ms)`,
        met: after < 2 * idle,
      },
      {
        group: 'flood',
        name: 'bridge RSS peak through the flood',
        value: round(peak, 0),
        unit: 'MiB',
        target: '< 300 MB',
        met: peak * 1.048576 < 300,
      },
      {
        group: 'flood',
        name: `/bridge/health after ${STREAMS} page streams closed`,
        value: round(healthMs),
        unit: 'ms',
      },
    ];
  } finally {
    clearInterval(sampler);
    await bridge.stop();
  }
}
