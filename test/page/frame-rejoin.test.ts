import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

describe('a child frame that gave up on its parent', () => {
  it('rejoins the page as a frame once the parent document gets its agent (here: 4 s late)', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      // the parent has no agent at first: its child waits 3 s, then claims as a page of its own
      '/': `<!doctype html><title>Host</title><body><h1>Host</h1><iframe title="Inner" src="/inner"></iframe></body>`,
      '/inner': `<!doctype html>${agentTag(bridge)}<body><p>Inner text</p></body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const alone = await connectedPage(bridge, site.url + '/inner');
    expect(alone.frames.size).toBe(1);

    await tab.addScriptTag({ url: `${bridge.url}/aiti/page.js` });
    const host = await connectedPage(bridge, site.url + '/');
    await waitFor(() => Boolean(host.frames.get('f1')?.stream?.isOpen), 10_000, 'the child joined the host page');
    expect(await exec(bridge, host, 'DOM.getText', {}, 'f1')).toMatchObject({ text: 'Inner text' });
    // no page of its own is left connected: the inner document is only a frame of the host page now
    await waitFor(
      () =>
        !bridge.context.pages
          .all()
          .some((p) => p.frames.get('main')?.url.endsWith('/inner') && p.frames.get('main')?.stream?.isOpen),
      5000,
      'no standalone page for the child',
    );
  });
});
