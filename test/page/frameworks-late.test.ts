import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, openPage } from './harness.js';

beforeAll(() => ensurePageAgentBuilt(), 120_000);

/**
 * The page agent names a page's frameworks when it connects and again once the app has rendered. An app that
 * renders late (a busy machine, a lazy route, data fetched first) must still be named in bridge_status.
 */
describe('frameworks an app brings in late', () => {
  it('are named in bridge_status once the app renders them, after the timed detections have passed', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      '/': `<!doctype html><html><head><title>Late</title>${agentTag(bridge)}</head><body><main id="root"></main></body></html>`,
    });
    const tab = await (await launchBrowser()).newPage();
    // the page's clock is the test's: it runs as usual, and jumps past the detections when told
    await tab.clock.install();
    const page = await openPage(bridge, tab, `${site.url}/`);
    expect(page.frameworks).not.toContain('Chakra UI');
    // past the agent's last timed detection (3 s after it starts): only a change to the page can bring it in now
    await tab.clock.fastForward(3500);
    await tab.evaluate(() => {
      const button = document.createElement('button');
      button.className = 'chakra-button css-1x2y3z';
      button.textContent = 'Save';
      document.getElementById('root')?.append(button);
    });
    await waitFor(() => page.frameworks.includes('Chakra UI'), 5000, 'Chakra UI named for the page');
    const agent = await connectAgent(bridge.url);
    expect(resultText(await callTool(agent, 'bridge_status'))).toContain('Chakra UI');
  });

  it('are named when the app rendered them while the first claim was on its way', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      '/': `<!doctype html><html><head><title>Slow claim</title>${agentTag(bridge)}</head><body><button class="chakra-button">Save</button></body></html>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.clock.install();
    // the bridge is slow to answer the first claim: the agent sees the library (after load) before it has a page
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let claims = 0;
    await tab.route('**/bridge/claim', async (route) => {
      if (++claims === 1) await released;
      await route.continue();
    });
    await tab.goto(`${site.url}/`);
    await tab.clock.fastForward(1000); // past the detection 0.5 s after load
    release();
    const page = await connectedPage(bridge, `${site.url}/`);
    await waitFor(() => page.frameworks.includes('Chakra UI'), 5000, 'Chakra UI named for the page');
  });
});
