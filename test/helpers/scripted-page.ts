import type { ClaimAnswer, CommandEvent, Json } from '../../bridge/protocol/index.js';
import { onCleanup } from './bridge.js';
import type { SseClient } from './sse.js';
import { browserOrigin, claimPage, openPageStream } from './page-wire.js';

export type CommandHandler = (cmd: string, args: Json, command: CommandEvent) => Json | Promise<Json>;

/**
 * A page driven by the test instead of a browser: claims over real HTTP, listens on its SSE stream, and posts
 * results. Used where a test is about the bridge rather than the page agent.
 */
export class ScriptedPage {
  stream?: SseClient;
  private running = false;

  private constructor(
    readonly bridgeUrl: string,
    readonly instanceId: string,
    readonly claim: ClaimAnswer,
    private readonly handler: CommandHandler,
    readonly origin?: string,
  ) {}

  get pageId(): string {
    return this.claim.pageId;
  }

  get secret(): string {
    return this.claim.secret;
  }

  static async connect(
    bridgeUrl: string,
    options: {
      instanceId?: string;
      secret?: string;
      url?: string;
      origin?: string;
      handler?: CommandHandler;
      frameworks?: string[];
      title?: string;
    } = {},
  ): Promise<ScriptedPage> {
    const { instanceId, claim } = await claimPage(bridgeUrl, options);
    const page = new ScriptedPage(
      bridgeUrl,
      instanceId,
      claim,
      options.handler ?? ((cmd) => ({ echo: cmd })),
      options.origin ?? browserOrigin(options.url ?? 'http://localhost:3000/'),
    );
    await page.open();
    onCleanup(() => page.close());
    return page;
  }

  /** Opens (or re-opens, as after a reload) the page's command stream. */
  async open(frameId?: string): Promise<void> {
    const { instanceId, secret, origin } = this;
    this.stream = await openPageStream(this.bridgeUrl, { instanceId, secret, origin, frameId });
    this.running = true;
    void this.serve(this.stream);
  }

  private async serve(stream: SseClient): Promise<void> {
    while (this.running && stream === this.stream) {
      let event;
      try {
        event = await stream.next('command', 60_000);
      } catch {
        continue;
      }
      const command = event.data as CommandEvent;
      let answer: { ok: true; result: Json } | { ok: false; error: string };
      try {
        answer = { ok: true, result: await this.handler(command.cmd, command.args, command) };
      } catch (error) {
        answer = { ok: false, error: (error as Error).message };
      }
      // The bridge may have closed meanwhile (a test ending): the answer is lost, as a real page's would be.
      await this.post({ ...answer, requestId: command.requestId }).catch(() => undefined);
    }
  }

  async post(body: { requestId: string; ok: boolean; result?: Json; error?: string }): Promise<Response> {
    return fetch(`${this.bridgeUrl}/bridge/result`, {
      method: 'POST',
      // a page's fetch to the bridge is cross-origin, so the browser always sends its Origin
      headers: { 'content-type': 'text/plain', ...(this.origin ? { origin: this.origin } : {}) },
      body: JSON.stringify({ pageId: this.pageId, secret: this.secret, ...body }),
    });
  }

  /** Closes the stream, as a tab that closes or navigates away. */
  close(): void {
    this.running = false;
    this.stream?.close();
  }
}
