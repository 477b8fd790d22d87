import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AskOutcome } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { windowClient } from '../helpers/window.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, openPage } from '../page/harness.js';

beforeAll(() => ensurePageAgentBuilt());

function page(tag: string): string {
  return `<!doctype html><html><head><title>Shop</title>${tag}</head><body>
  <header><h1 id="title">Summer sale</h1></header><main><button>Buy</button></main></body></html>`;
}

describe('asks with the real page agent in Chromium', () => {
  it('user_pick_element returns the element the human clicks in the page', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const site = await serveFixture({ '/': page(agentTag(bridge)) });
    const tab = await (await launchBrowser()).newPage();
    await openPage(bridge, tab, site.url + '/');
    const agent = await connectAgent(bridge.url);
    const result = agent.callTool({ name: 'user_pick_element', arguments: { prompt: 'Click the headline' } });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'user_pick_element', prompt: 'Click the headline' });
    await tab.waitForFunction(() => document.documentElement.style.cursor === 'crosshair');
    const box = await tab.locator('#title').boundingBox();
    if (!box) throw new Error('the headline has no box');
    await tab.mouse.move(box.x + 5, box.y + 5);
    await tab.mouse.click(box.x + 10, box.y + box.height / 2);
    const outcome = ((await result) as CallToolResult).structuredContent as AskOutcome;
    expect(outcome).toMatchObject({ status: 'answered', value: { tag: 'h1', text: 'Summer sale' } });
    expect(JSON.stringify(outcome.value)).toContain('title');
  });

  it('Runtime.evaluate changes the page only after the human allows it', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const site = await serveFixture({ '/': page(agentTag(bridge)) });
    const tab = await (await launchBrowser()).newPage();
    await openPage(bridge, tab, site.url + '/');
    const agent = await connectAgent(bridge.url);
    const result = agent.callTool({
      name: 'page_exec',
      arguments: { cmd: 'Runtime.evaluate', args: { expression: 'document.title = "Changed"' } },
    });
    const card = await window.nextAsk();
    expect(card).toMatchObject({ kind: 'page_command', command: { cmd: 'Runtime.evaluate' } });
    expect(await tab.title()).toBe('Shop');
    await window.act({ askId: card.askId, action: 'answer', value: true });
    const done = (await result) as CallToolResult;
    expect(done.isError ?? false).toBe(false);
    expect(await tab.title()).toBe('Changed');
  });
});
