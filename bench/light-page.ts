import { Agent, request, type IncomingMessage } from 'node:http';
import { post } from './http-load.js';
import type { ClaimAnswer, CommandEvent, Json } from '../bridge/protocol/index.js';
import WebSocket from 'ws';
import { claimPage } from '../test/helpers/page-wire.js';

/** One socket pool for every light page of a process: results go over kept-alive connections, as a browser's do. */
const results = new Agent({ keepAlive: true });

const ORIGIN = 'http://localhost:3000';

/** A claim as the page agent makes it: refused by the rate limit (429), it tries again a second later. */
export async function politeClaim(bridgeUrl: string, url: string): Promise<Awaited<ReturnType<typeof claimPage>>> {
  for (;;) {
    try {
      return await claimPage(bridgeUrl, { url });
    } catch (error) {
      if (!/ 429:/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * A page without a browser, as cheap as a page can be: claims over HTTP, keeps its SSE command stream open, and
 * answers every command with what it was asked and who answered, so a misrouted result shows. Results go on its
 * result socket, as the page agent sends them once the socket is open (by POST until it is). On node:http and
 * ws (not fetch and web streams), so that with 500 of them the benchmark measures the bridge rather than its own
 * pages.
 */
export class LightPage {
  private socket?: WebSocket;

  private constructor(
    private readonly bridgeUrl: string,
    readonly claim: ClaimAnswer,
    private readonly stream: IncomingMessage,
  ) {
    this.serve();
    this.openSocket();
  }

  get pageId(): string {
    return this.claim.pageId;
  }

  static async connect(bridgeUrl: string, n: number): Promise<LightPage> {
    const { instanceId, claim } = await politeClaim(bridgeUrl, `${ORIGIN}/app/${n}`);
    const q = new URLSearchParams({ role: 'page', instanceId, secret: claim.secret });
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${bridgeUrl}/bridge/sse?${q}`, {
        headers: { accept: 'text/event-stream', origin: ORIGIN },
      });
      req.on('response', (res) => {
        if (res.statusCode === 200) resolve(res);
        else reject(new Error(`page stream answered ${res.statusCode}`));
      });
      req.on('error', reject);
      req.end();
    });
    return new LightPage(bridgeUrl, claim, stream);
  }

  private serve(): void {
    let buffer = '';
    this.stream.setEncoding('utf8');
    this.stream.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (!block.startsWith('event: command\n')) continue;
        const data = block.slice(block.indexOf('data: ') + 6);
        this.answer(JSON.parse(data) as CommandEvent);
      }
    });
    this.stream.on('error', () => undefined);
  }

  private openSocket(): void {
    const q = new URLSearchParams({ pageId: this.pageId, secret: this.claim.secret });
    const socket = new WebSocket(`${this.bridgeUrl.replace(/^http/, 'ws')}/bridge/result-socket?${q}`, {
      headers: { origin: ORIGIN },
      perMessageDeflate: false,
    });
    socket.on('open', () => (this.socket = socket));
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
    });
    socket.on('error', () => undefined);
  }

  private answer(command: CommandEvent): void {
    const result: Json = { pageId: this.pageId, args: command.args };
    if (this.socket?.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify({ requestId: command.requestId, ok: true, result }));
      return;
    }
    const body = JSON.stringify({
      pageId: this.pageId,
      secret: this.claim.secret,
      requestId: command.requestId,
      ok: true,
      result,
    });
    // as a browser page's fetch to the bridge (cross-origin) always does
    void post(
      results,
      new URL('/bridge/result', this.bridgeUrl),
      { 'content-type': 'text/plain', origin: ORIGIN },
      body,
    ).catch(() => undefined);
  }

  close(): void {
    this.socket?.terminate();
    this.stream.destroy();
  }
}
