import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, openPage } from '../page/harness.js';

beforeAll(() => ensurePageAgentBuilt(), 120_000);

const app = (tag: string) => `<!doctype html><html><head><title>Shop</title>${tag}</head><body>
<h1 id="count">0 items</h1>
<button id="add" onclick="document.getElementById('count').textContent = (parseInt(document.getElementById('count').textContent) + 1) + ' items'">Add to cart</button>
<dialog open aria-label="Sign in"><form method="dialog" onsubmit="console.error('signed in as ' + this.email.value)">
<label>Email <input name="email" type="email"></label>
<button type="submit">Sign in</button></form></dialog>
</body></html>`;

describe('MCP page tools against the real page agent in Chromium', () => {
  it('snapshot, click by ref, self_ui, form_fill and page_logs work end to end', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({ '/': app(agentTag(bridge)) });
    const { newPage } = await launchBrowser();
    const tab = await newPage();
    const page = await openPage(bridge, tab, `${site.url}/`);
    const client = await connectAgent(bridge.url);

    const snapshot = await callTool(client, 'page_snapshot');
    expect(snapshot.isError, JSON.stringify(snapshot.content)).toBeFalsy();
    const outline = (snapshot.structuredContent as { outline: string }).outline;
    const ref = /(e\d+) button "Add to cart"/.exec(outline)?.[1];
    expect(ref, outline).toBeDefined();

    const click = await callTool(client, 'page_exec', { cmd: 'Input.click', args: { target: ref } });
    expect(click.isError, JSON.stringify(click.content)).toBeFalsy();
    await waitFor(async () => (await tab.textContent('#count')) === '1 items', 5000, 'the click to count');

    const ui = await callTool(client, 'self_ui', { pageId: page.pageId });
    expect(ui.structuredContent).toMatchObject({
      dialogs: [
        expect.objectContaining({ fields: [expect.objectContaining({ label: expect.stringContaining('Email') })] }),
      ],
    });

    const fill = await callTool(client, 'form_fill', { fields: { Email: 'ada@example.com' }, button: 'Sign in' });
    expect(fill.isError, JSON.stringify(fill.content)).toBeFalsy();
    await waitFor(
      async () => {
        const logs = await callTool(client, 'page_logs', { level: 'error' });
        return JSON.stringify(logs.structuredContent).includes('signed in as ada@example.com');
      },
      10_000,
      'the console error in page_logs',
    );
  });
});
