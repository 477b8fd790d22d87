import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { percentile, round, type BenchRow } from './report.js';

/**
 * The floor under every page round trip: a bare SSE event to a page and a POST back, with no bridge, no
 * validation and no MCP — the same browser, the same loopback, measured in the same run.
 */
export async function measureFloor(browser: Browser, calls: number): Promise<{ p50: number; p99: number }> {
  let stream: ServerResponse | undefined;
  const waiting = new Map<string, () => void>();
  const page = `<!doctype html><title>floor</title><script>
    const es = new EventSource('/events');
    es.addEventListener('command', (e) => {
      const { id } = JSON.parse(e.data);
      fetch('/result', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ id, result: document.title }) });
    });
    es.onopen = () => { document.title = 'ready'; };
  </script>`;
  const server = createServer((req, res) => {
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': open\n\n');
      req.socket.setNoDelay(true);
      stream = res;
      return;
    }
    if (req.url === '/result') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        res.writeHead(204).end();
        const { id } = JSON.parse(body) as { id: string };
        waiting.get(id)?.();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const tab = await browser.newPage();
  await tab.goto(url);
  await tab.waitForFunction(() => document.title === 'ready');
  const samples: number[] = [];
  for (let i = 0; i < calls + 20; i++) {
    const id = String(i);
    const started = performance.now();
    await new Promise<void>((resolve) => {
      waiting.set(id, resolve);
      stream?.write(`event: command\ndata: ${JSON.stringify({ id })}\n\n`);
    });
    waiting.delete(id);
    if (i >= 20) samples.push(performance.now() - started); // the first 20 warm up
  }
  await tab.close();
  stream?.end();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

export function floorRows(floor: { p50: number; p99: number }, calls: number): BenchRow[] {
  return [
    {
      group: 'page round trip',
      name: `floor: bare SSE → page → POST (p50 of ${calls})`,
      value: round(floor.p50),
      unit: 'ms',
    },
    {
      group: 'page round trip',
      name: `floor: bare SSE → page → POST (p99 of ${calls})`,
      value: round(floor.p99),
      unit: 'ms',
    },
  ];
}
