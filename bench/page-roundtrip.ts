import { cpus } from 'node:os';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser } from 'playwright-core';
import { call, connectMcp } from './agent.js';
import { spawnBridge } from './bridge-process.js';
import { measureFloor, floorRows } from './floor.js';
import { allowScriptsOnPage, waitForPage } from './human.js';
import { servePages } from './page-server.js';
import { percentile, round, type BenchRow } from './report.js';

const WARMUP = 20;

/** p50/p99 of `calls` page_exec Runtime.evaluate("document.title") calls, each awaited before the next. */
async function timeEvaluate(agent: Client, pageId: string, calls: number): Promise<{ p50: number; p99: number }> {
  const samples: number[] = [];
  for (let i = 0; i < calls + WARMUP; i++) {
    const started = performance.now();
    const out = await call(agent, 'page_exec', {
      pageId,
      cmd: 'Runtime.evaluate',
      args: { expression: 'document.title' },
    });
    const elapsed = performance.now() - started;
    const value = (out.result as { value?: unknown } | undefined)?.value;
    if (value !== 'bench page') throw new Error(`Runtime.evaluate answered ${JSON.stringify(out.result)}`);
    if (i >= WARMUP) samples.push(elapsed);
  }
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * The page round trip an agent feels: page_exec Runtime.evaluate of document.title on a real page in headless
 * Chromium (the page loads /aiti/page.js from a bridge running in its own process), via MCP over Streamable
 * HTTP and via the stdio shim, beside the bare SSE → page → POST floor measured in the same browser and run.
 */
export async function pageRoundTrip(browser: Browser, calls: number, notes: string[]): Promise<BenchRow[]> {
  const floor = await measureFloor(browser, calls);
  const bridge = await spawnBridge();
  const site = await servePages({
    '/': `<!doctype html><html><head><title>bench page</title><script src="${bridge.url}/aiti/page.js"></script></head><body><h1>bench</h1></body></html>`,
  });
  const tab = await browser.newPage();
  const agents: Client[] = [];
  try {
    await tab.goto(site.url + '/');
    const http = await connectMcp(bridge.url, 'bench-http', 'streamable');
    agents.push(http);
    const pageId = await waitForPage(http, site.url);
    await allowScriptsOnPage(bridge, http, pageId);
    let cpu = bridge.cpuSeconds();
    const split = bridge.cpuSplit();
    const overHttp = await timeEvaluate(http, pageId, calls);
    const httpCpuMs = ((bridge.cpuSeconds() - cpu) * 1000) / (calls + WARMUP);
    const kernelMs = ((bridge.cpuSplit().system - split.system) * 1000) / (calls + WARMUP);
    const stdio = await connectMcp(bridge.url, 'bench-stdio', 'stdio');
    agents.push(stdio);
    cpu = bridge.cpuSeconds();
    const overStdio = await timeEvaluate(stdio, pageId, calls);
    const stdioCpuMs = ((bridge.cpuSeconds() - cpu) * 1000) / (calls + WARMUP);
    notes.push(
      'page round trip: Runtime.evaluate is a dangerous command (docs/SECURITY.md), so before measuring the human allowed it once "for this page" through the real route (POST /bridge/answer with remember:true on the page_command card); every measured call then runs without a card. Calls are sequential (one in flight), after 20 warm-up calls; the agent and the browser run on the same machine as the bridge.',
    );
    const limit = 1.5 * floor.p50;
    if (overHttp.p50 > limit || overStdio.p50 > limit) {
      notes.push(
        `page round trip gap: the MCP p50 is ${round(overHttp.p50 / floor.p50, 1)}× the floor over Streamable HTTP and ${round(overStdio.p50 / floor.p50, 1)}× through the stdio shim (target 1.5×). The floor is only the page leg (one SSE event down, one POST up); an MCP call adds a whole second exchange — the agent's POST to the bridge and its SSE answer through the SDK's Streamable HTTP transport — plus, for the shim, a stdio hop each way and a second process. The bridge itself spent ${round(httpCpuMs, 2)} ms of CPU per call over HTTP (${round(stdioCpuMs, 2)} ms per call from the shim), measured from /proc, of which ${round(kernelMs, 2)} ms in the kernel (system time) and the rest in JavaScript: two HTTP requests and two SSE events per call, the SDK's web-standard Streamable HTTP transport (a Web Request and Response per call, bridged to Node), zod validation of the tool arguments, the command and the page's result; the rest of the time is the agent's SDK client, the page agent in Chromium (parsing and checking the command, running it, posting the result cross-origin), the shim and the loopback hops, all on the same ${cpus().length} cores. With a page simulated in Node instead of Chromium, the same kind of MCP call takes the p50 shown in the "one agent's calls one at a time" row of the 500-pages section.`,
      );
    }
    const row = (via: string, r: { p50: number; p99: number }): BenchRow[] => [
      {
        group: 'page round trip',
        name: `page_exec Runtime.evaluate(document.title) via ${via} (p50 of ${calls})`,
        value: round(r.p50),
        unit: 'ms',
        target: `≤ 1.5 × floor p50 (${round(limit)} ms)`,
        met: r.p50 <= limit,
      },
      {
        group: 'page round trip',
        name: `page_exec Runtime.evaluate(document.title) via ${via} (p99 of ${calls})`,
        value: round(r.p99),
        unit: 'ms',
      },
    ];
    return [
      ...floorRows(floor, calls),
      ...row('MCP Streamable HTTP', overHttp),
      ...row('the stdio shim', overStdio),
      {
        group: 'page round trip',
        name: 'bridge CPU per page_exec call (Streamable HTTP)',
        value: round(httpCpuMs, 2),
        unit: 'ms',
      },
    ];
  } finally {
    for (const agent of agents) await agent.close().catch(() => undefined);
    await tab.close();
    await site.close();
    await bridge.stop();
  }
}
