import type { ClaimAnswer, CommandEvent, Json } from '../bridge/protocol/index.js';
import type { SseClient } from '../test/helpers/sse.js';
import { claimPage, openPageStream } from '../test/helpers/page-wire.js';

/**
 * A page without a browser, as cheap as a page can be: claims over HTTP, keeps its SSE command stream open, and
 * answers every command with what it was asked and who answered, so a misrouted result shows.
 */
export class LightPage {
  private running = true;

  private constructor(
    private readonly bridgeUrl: string,
    readonly claim: ClaimAnswer,
    private readonly stream: SseClient,
  ) {
    void this.serve();
  }

  get pageId(): string {
    return this.claim.pageId;
  }

  static async connect(bridgeUrl: string, n: number): Promise<LightPage> {
    const { instanceId, claim } = await claimPage(bridgeUrl, { url: `http://localhost:3000/app/${n}` });
    const stream = await openPageStream(bridgeUrl, { instanceId, secret: claim.secret }, 30_000);
    return new LightPage(bridgeUrl, claim, stream);
  }

  private async serve(): Promise<void> {
    while (this.running) {
      let command: CommandEvent;
      try {
        command = (await this.stream.next('command', 60_000)).data as CommandEvent;
      } catch {
        if (this.stream.closed) return;
        continue;
      }
      const result: Json = { pageId: this.pageId, args: command.args };
      const res = await fetch(`${this.bridgeUrl}/bridge/result`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({
          pageId: this.pageId,
          secret: this.claim.secret,
          requestId: command.requestId,
          ok: true,
          result,
        }),
      });
      await res.arrayBuffer();
    }
  }

  close(): void {
    this.running = false;
    this.stream.close();
  }
}
