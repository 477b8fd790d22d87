import { Agent, request, type IncomingMessage } from 'node:http';
import type { ClaimAnswer, CommandEvent, Json } from '../bridge/protocol/index.js';
import { claimPage } from '../test/helpers/page-wire.js';

/** One socket pool for every light page of a process: results go over kept-alive connections, as a browser's do. */
const results = new Agent({ keepAlive: true });

/**
 * A page without a browser, as cheap as a page can be: claims over HTTP, keeps its SSE command stream open, and
 * answers every command with what it was asked and who answered, so a misrouted result shows. On node:http (not
 * fetch and web streams), so that with 500 of them the benchmark measures the bridge rather than its own pages.
 */
export class LightPage {
  private constructor(
    private readonly bridgeUrl: string,
    readonly claim: ClaimAnswer,
    private readonly stream: IncomingMessage,
  ) {
    this.serve();
  }

  get pageId(): string {
    return this.claim.pageId;
  }

  static async connect(bridgeUrl: string, n: number): Promise<LightPage> {
    const { instanceId, claim } = await claimPage(bridgeUrl, { url: `http://localhost:3000/app/${n}` });
    const q = new URLSearchParams({ role: 'page', instanceId, secret: claim.secret });
    const stream = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${bridgeUrl}/bridge/sse?${q}`, {
        headers: { accept: 'text/event-stream', origin: 'http://localhost:3000' },
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

  private answer(command: CommandEvent): void {
    const result: Json = { pageId: this.pageId, args: command.args };
    const body = JSON.stringify({
      pageId: this.pageId,
      secret: this.claim.secret,
      requestId: command.requestId,
      ok: true,
      result,
    });
    const req = request(`${this.bridgeUrl}/bridge/result`, {
      method: 'POST',
      agent: results,
      headers: { 'content-type': 'text/plain', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => res.resume());
    req.on('error', () => undefined);
    req.end(body);
  }

  close(): void {
    this.stream.destroy();
  }
}
