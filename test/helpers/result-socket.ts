import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import WebSocket from 'ws';
import type { Bridge } from '../../bridge/bridge.js';
import { claimPage, openPageStream } from './page-wire.js';
import type { SseClient } from './sse.js';

/** The result socket's wire as a page agent, or an attacker, speaks it (bridge/pages/result-socket-routes.ts). */

export const DEV = 'http://localhost:3000';

export interface TestPage {
  instanceId: string;
  pageId: string;
  secret: string;
  stream: SseClient;
}

export async function devPage(bridge: Bridge, url = `${DEV}/`): Promise<TestPage> {
  const { instanceId, claim } = await claimPage(bridge.url, { url });
  const stream = await openPageStream(bridge.url, { instanceId, secret: claim.secret, origin: new URL(url).origin });
  return { instanceId, pageId: claim.pageId, secret: claim.secret, stream };
}

export function socketUrl(bridge: Bridge, query: Record<string, string>, path = '/bridge/result-socket'): string {
  return `${bridge.url.replace('http', 'ws')}${path}?${new URLSearchParams(query)}`;
}

/** What the bridge answered an upgrade: 101 when it accepted, else the HTTP status, its reason phrase and body. */
export interface UpgradeAnswer {
  status: number;
  statusMessage: string;
  body: string;
  retryAfter?: string;
  /** the WebSocket extensions the bridge agreed to (Sec-WebSocket-Extensions) */
  extensions?: string;
}

/** A WebSocket upgrade by hand: the status the bridge answers (101 when it accepts) and its body. */
export function upgrade(url: string, headers: Record<string, string> = {}): Promise<UpgradeAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url.replace(/^ws/, 'http'), {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
        Origin: DEV,
        ...headers,
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      const extensions = res.headers['sec-websocket-extensions'];
      resolve({
        status: res.statusCode ?? 0,
        statusMessage: res.statusMessage ?? '',
        body: '',
        ...(extensions ? { extensions } : {}),
      });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          statusMessage: res.statusMessage ?? '',
          body,
          ...(res.headers['retry-after'] ? { retryAfter: res.headers['retry-after'] } : {}),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

export type ResultSocket = WebSocket & { closed: Promise<[number, string]> };

/** An open result socket for `page` (its main frame unless `frameId`), as its page agent would hold it. */
export async function openSocket(
  bridge: Bridge,
  page: Pick<TestPage, 'pageId' | 'secret'>,
  options: { frameId?: string; path?: string; origin?: string } = {},
): Promise<ResultSocket> {
  const query = { pageId: page.pageId, secret: page.secret, ...(options.frameId ? { frameId: options.frameId } : {}) };
  const ws = new WebSocket(socketUrl(bridge, query, options.path), {
    headers: { origin: options.origin ?? DEV },
  }) as ResultSocket;
  ws.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve([code, String(reason)])));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

/** A command from the bridge to `page`'s main frame: its result promise and the request id the page received. */
export async function command(
  bridge: Bridge,
  page: TestPage,
): Promise<{ answer: Promise<unknown>; requestId: string }> {
  const target = bridge.context.pages.get(page.pageId);
  if (!target) throw new Error(`no page ${page.pageId}`);
  const answer = bridge.context.requests.send(target, 'DOM.getText', {});
  answer.catch(() => undefined);
  const event = await page.stream.next('command');
  return { answer, requestId: (event.data as { requestId: string }).requestId };
}
