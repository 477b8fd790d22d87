import { randomUUID } from 'node:crypto';
import type { ClaimAnswer, CommandEvent, Json } from '../../bridge/protocol/index.js';
import { onCleanup } from '../helpers/bridge.js';
import type { SseClient } from '../helpers/sse.js';
import { claimPage, openPageStream } from '../helpers/page-wire.js';

/**
 * A scripted page that outlives its bridge: like ScriptedPage it claims over HTTP and answers commands on its
 * stream, but a bridge that dies under it (connection refused or reset) just ends its loop, with no unhandled
 * rejection. Each answer says which page answered and what it was asked, so a misrouted result shows.
 */
export class SturdyPage {
  private running = true;
  /** commands this page took so far */
  received = 0;

  private constructor(
    private readonly bridgeUrl: string,
    readonly claim: ClaimAnswer,
    private readonly stream: SseClient,
    private readonly silent: boolean,
  ) {
    void this.serve();
  }

  get pageId(): string {
    return this.claim.pageId;
  }

  /** `silent`: the page takes commands and never answers them (a page stuck in a long task). */
  static async connect(bridgeUrl: string, options: { silent?: boolean } = {}): Promise<SturdyPage> {
    const instanceId = randomUUID();
    const { claim } = await claimPage(bridgeUrl, { instanceId, url: `http://localhost:3000/${instanceId}` });
    const stream = await openPageStream(bridgeUrl, { instanceId, secret: claim.secret });
    const page = new SturdyPage(bridgeUrl, claim, stream, options.silent ?? false);
    onCleanup(() => page.close());
    return page;
  }

  private async serve(): Promise<void> {
    while (this.running && !this.stream.closed) {
      let command: CommandEvent;
      try {
        // a long wait: SseClient keeps a waiter that timed out, which would swallow the next command
        command = (await this.stream.next('command', 60_000)).data as CommandEvent;
      } catch {
        continue;
      }
      this.received++;
      if (this.silent) continue;
      await new Promise((r) => setTimeout(r, Math.random() * 10));
      const result: Json = { answeredBy: this.pageId, args: command.args };
      try {
        const body = { pageId: this.pageId, secret: this.claim.secret, requestId: command.requestId, ok: true, result };
        const res = await fetch(`${this.bridgeUrl}/bridge/result`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
      } catch {
        return; // the bridge is gone
      }
    }
  }

  close(): void {
    this.running = false;
    this.stream.close();
  }
}
