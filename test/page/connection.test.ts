import { beforeAll, describe, expect, it } from 'vitest';
import { createBridge } from '../../bridge/bridge.js';
import { onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

describe('the page connection', () => {
  it('a reload by the human keeps the pageId (identity in sessionStorage); a new tab is a new page', async () => {
    const bridge = await startBridge();
    const server = await serveFixture({ '/': `<!doctype html><title>Keep</title>${agentTag(bridge)}<p>keep me</p>` });
    const browser = await launchBrowser();
    const tab = await browser.newPage();
    await tab.goto(server.url + '/');
    const first = await connectedPage(bridge, server.url + '/');
    await tab.reload();
    await connectedPage(bridge, server.url + '/');
    expect(bridge.context.pages.all().map((p) => p.pageId)).toEqual([first.pageId]);
    expect(await exec(bridge, first, 'DOM.getText', { target: 'text=keep me' })).toEqual({ text: 'keep me' });

    const other = await browser.newPage();
    await other.goto(server.url + '/');
    await expect.poll(() => bridge.context.pages.all().length).toBe(2);
  });

  it('reconnects with backoff when the bridge restarts, and claims again', async () => {
    const dataDir = tempDir();
    const first = await createBridge({ port: 0, dataDir });
    const port = first.port;
    const server = await serveFixture({
      '/': `<!doctype html><title>Back</title><script src="${first.url}/aiti/page.js"></script><p>back</p>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(server.url + '/');
    await connectedPage(first, server.url + '/');
    await first.close();

    const second = await createBridge({ port, dataDir });
    onCleanup(() => second.close());
    const page = await connectedPage(second, server.url + '/', 20_000);
    expect(await exec(second, page, 'DOM.getText', { target: 'text=back' })).toEqual({ text: 'back' });
  });
});
