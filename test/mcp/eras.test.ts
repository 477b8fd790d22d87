import { fileURLToPath } from 'node:url';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1Stdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2Stdio } from '@modelcontextprotocol/client/stdio';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { TOOL_NAMES } from '../../bridge/mcp/tools/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { openWindow } from '../helpers/window.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, openPage } from '../page/harness.js';

/**
 * Issue 36: both protocol eras on one endpoint and through the shim. Each client below lists and calls every
 * tool, asks the human and gets the answer, and hears of a human push, against one real bridge and one real page.
 * Results are read as a model reads them: the text content.
 */

const BIN = fileURLToPath(new URL('../../bin/aiti-bridge.js', import.meta.url));

type Sdk = 'v1' | 'v2 auto' | 'v2 pinned to 2026-07-28';
type Way = 'HTTP' | 'the stdio shim';

interface Result {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** What the tests need of either SDK's client. */
interface AnyClient {
  era(): string;
  listTools(): Promise<string[]>;
  call(name: string, args?: Record<string, unknown>): Promise<Result>;
  close(): Promise<void>;
}

const text = (result: Result) => result.content.map((block) => block.text ?? `[${block.type}]`).join('\n');

async function connect(sdk: Sdk, way: Way, bridge: Bridge, name: string): Promise<AnyClient> {
  const url = new URL('/mcp/mcp', bridge.url);
  const shim = {
    command: process.execPath,
    args: [BIN, '--stdio'],
    env: shimEnv(bridge.url),
    stderr: 'ignore' as const,
  };
  if (sdk === 'v1') {
    const client = new V1Client({ name, version: '1.0.0' });
    await client.connect(way === 'HTTP' ? new V1Http(url) : new V1Stdio(shim));
    return {
      era: () => 'legacy',
      listTools: async () => (await client.listTools()).tools.map((t) => t.name),
      call: async (tool, args = {}) =>
        (await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 60_000 })) as Result,
      close: () => client.close(),
    };
  }
  const mode = sdk === 'v2 auto' ? 'auto' : ({ pin: '2026-07-28' } as const);
  const client = new V2Client({ name, version: '1.0.0' }, { versionNegotiation: { mode } });
  await client.connect(way === 'HTTP' ? new V2Http(url) : new V2Stdio(shim));
  return {
    era: () => client.getProtocolEra() ?? 'none',
    listTools: async () => (await client.listTools()).tools.map((t) => t.name),
    call: async (tool, args = {}) =>
      (await client.callTool({ name: tool, arguments: args }, { timeout: 60_000 })) as Result,
    close: () => client.close(),
  };
}

function shimEnv(bridgeUrl: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', AITI_BRIDGE_URL: bridgeUrl, AITI_LOG: 'warn' };
}

const app = (tag: string) => `<!doctype html><html><head><title>Shop</title>${tag}</head><body>
<h1>Checkout</h1><button onclick="console.log('paid')">Pay</button>
<label>Email <input name="email" type="email"></label>
</body></html>`;

/** A bridge with one real page in Chromium, for one test. */
async function bridgeWithPage(): Promise<{ bridge: Bridge; pageId: string }> {
  const bridge = await startBridge();
  const site = await serveFixture({ '/': app(agentTag(bridge)) });
  const { newPage } = await launchBrowser();
  const page = await openPage(bridge, await newPage(), `${site.url}/`);
  return { bridge, pageId: page.pageId };
}

beforeAll(() => ensurePageAgentBuilt(), 120_000);

const cases: Array<[Sdk, Way, string]> = [];
for (const sdk of ['v1', 'v2 auto', 'v2 pinned to 2026-07-28'] as Sdk[]) {
  for (const way of ['HTTP', 'the stdio shim'] as Way[]) cases.push([sdk, way, sdk === 'v1' ? 'legacy' : 'modern']);
}

describe.each(cases)('the %s SDK client over %s', (sdk, way, era) => {
  it(`speaks the ${era} era, lists and calls every tool, and gets the human's answer and push`, async () => {
    const { bridge, pageId } = await bridgeWithPage();
    const name = `${sdk}-${way}`.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    const client = await connect(sdk, way, bridge, name);
    try {
      expect(client.era()).toBe(era);
      expect(await client.listTools()).toEqual([...TOOL_NAMES]);

      const window = await openWindow(bridge);
      // every tool, as an agent would first call it; the asks are answered by the window below
      const calls: Record<string, Record<string, unknown>> = {
        page_exec: { pageId, cmd: 'DOM.getText', args: { target: 'h1' } },
        page_snapshot: { pageId },
        bridge_status: {},
        page_logs: { pageId },
        page_network: { pageId },
        self_ui: { pageId },
        form_fill: { pageId, fields: { Email: `${name}@example.com` } },
        file_stat: { path: BIN },
        user_pick_element: { pageId, prompt: 'Which one?', timeoutMs: 60_000 },
        user_confirm: { prompt: `Deploy for ${name}?` },
        user_choose: { prompt: 'Which?', choices: ['a', 'b'], async: true },
        user_input: { prompt: 'Name?', async: true },
        user_presence: { prompt: 'Still there?' },
        user_notify: { body: 'Build done' },
        aiti_hello: {},
        aiti_inbox: {},
      };
      expect(Object.keys(calls).sort()).toEqual([...TOOL_NAMES].sort());
      const waiting = new Set(['user_pick_element', 'user_confirm', 'user_presence']);
      for (const tool of TOOL_NAMES) {
        const args = calls[tool] ?? {};
        if (!waiting.has(tool)) {
          const result = await client.call(tool, args);
          expect(result.isError ?? false, `${tool}: ${text(result)}`).toBe(false);
          continue;
        }
        // a question that waits for the human: the window's card gets the human's answer
        const pending = client.call(tool, args);
        let card = await window.nextAsk();
        // the async asks made above show as cards too: this one is the card with this call's prompt
        while (card.prompt !== args.prompt) card = await window.nextAsk();
        const answer =
          tool === 'user_confirm'
            ? { action: 'answer', value: true }
            : tool === 'user_presence'
              ? { action: 'answer', value: 'present' }
              : { action: 'reject', reason: 'not_now' };
        const acted = await window.act({ askId: card.askId, ...answer });
        expect(acted.status, JSON.stringify(acted.body)).toBe(200);
        const result = await pending;
        expect(text(result), tool).toMatch(tool === 'user_pick_element' ? /rejected/ : /answered/);
        if (tool === 'user_confirm') expect(text(result)).toMatch(/\btrue\b|yes/i);
      }

      // the human pushes: the very next result says so, and the inbox has it
      const push = await http(`${bridge.url}/bridge/push`, {
        token: bridge.token,
        body: { to: name, text: `ship it, ${name}` },
      });
      expect(push.status, JSON.stringify(push.body)).toBe(200);
      const next = await client.call('bridge_status');
      expect(text(next)).toContain(`📬 1 unread message`);
      expect(text(next)).toContain(`ship it, ${name}`);
      const inbox = await client.call('aiti_inbox');
      expect(text(inbox)).toContain(`ship it, ${name}`);
      window.stream.close();
    } finally {
      await client.close();
    }
  }, 120_000);
});
