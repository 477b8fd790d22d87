import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { round, type BenchRow } from './report.js';

/** The floor's page, open in a tab: `time(n)` runs n exchanges and gives each one's time in ms. */
export interface Floor {
  time(calls: number): Promise<number[]>;
  close(): Promise<void>;
}

/**
 * The floor under every page round trip: a bare SSE event to a page and a POST back, with no bridge, no
 * validation and no MCP — the same browser, the same loopback, measured in the same run. With `socket` the page
 * answers with a message on a WebSocket instead, as the page agent sends its results once its result socket is
 * open (bridge/pages/result-socket-routes.ts).
 */
export async function openFloor(browser: Browser, options: { socket?: boolean } = {}): Promise<Floor> {
  let stream: ServerResponse | undefined;
  const waiting = new Map<string, () => void>();
  const page = `<!doctype html><title>floor</title><script>
    const socket = ${options.socket ? "new WebSocket(location.origin.replace('http', 'ws') + '/socket')" : 'undefined'};
    const es = new EventSource('/events');
    es.addEventListener('command', (e) => {
      const { id } = JSON.parse(e.data);
      const body = JSON.stringify({ id, result: document.title });
      if (socket) socket.send(body);
      else fetch('/result', { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    });
    const ready = () => { document.title = 'ready'; };
    es.onopen = () => (socket && socket.readyState !== 1 ? socket.addEventListener('open', ready) : ready());
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
  const sockets = new WebSocketServer({ server, path: '/socket' });
  sockets.on('connection', (socket) =>
    socket.on('message', (data) => waiting.get((JSON.parse(String(data)) as { id: string }).id)?.()),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const tab = await browser.newPage();
  await tab.goto(url);
  await tab.waitForFunction(() => document.title === 'ready');
  let next = 0;
  const time = async (calls: number): Promise<number[]> => {
    const samples: number[] = [];
    for (let i = 0; i < calls; i++) {
      const id = String(next++);
      const started = performance.now();
      await new Promise<void>((resolve) => {
        waiting.set(id, resolve);
        stream?.write(`event: command\ndata: ${JSON.stringify({ id })}\n\n`);
      });
      waiting.delete(id);
      samples.push(performance.now() - started);
    }
    return samples;
  };
  await time(20); // warm-up
  return {
    time,
    close: async () => {
      await tab.close();
      stream?.end();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
