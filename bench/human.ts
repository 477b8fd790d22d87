import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AskView } from '../bridge/protocol/index.js';
import { SseClient } from '../test/helpers/sse.js';
import { call } from './agent.js';

/**
 * Runs one Runtime.evaluate on the page while the human, through the real window route, answers its
 * page_command card with "allow for this page" (POST /bridge/answer {value:true, remember:true}). Later
 * evaluations on that page then run without asking.
 */
export async function allowScriptsOnPage(
  bridge: { url: string; token: string },
  agent: Client,
  pageId: string,
): Promise<void> {
  const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
  try {
    await window.next('state');
    const first = call(agent, 'page_exec', { pageId, cmd: 'Runtime.evaluate', args: { expression: 'document.title' } });
    const ask = (await window.next('ask', 10_000)).data as AskView;
    if (ask.kind !== 'page_command') throw new Error(`expected a page_command card, got ${ask.kind}`);
    const res = await fetch(`${bridge.url}/bridge/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ askId: ask.askId, action: 'answer', value: true, remember: true }),
    });
    if (!res.ok) throw new Error(`answer refused: ${res.status} ${await res.text()}`);
    await first;
  } finally {
    window.close();
  }
}

/** Polls bridge_status until a page whose url starts with `url` can be driven; returns its pageId. */
export async function waitForPage(agent: Client, url: string, timeoutMs = 15_000): Promise<string> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const status = await call(agent, 'bridge_status', {});
    const pages = (status.pages ?? []) as Array<{ pageId: string; url: string }>;
    const found = pages.find((p) => p.url.startsWith(url));
    if (found) return found.pageId;
    if (Date.now() > until) throw new Error(`no page at ${url} connected within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
