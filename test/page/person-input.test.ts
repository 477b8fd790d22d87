import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * Presses as a person's pointer makes them: a menu whose handlers sit on the links inside its options, an element
 * nothing listens to, one whose listener changes nothing visible, one a document-level listener answers, and a
 * button under a transparent layer.
 */
const SHOP = `
  <h1>Fruit shop</h1>
  <p id="out">none</p>
  <ul role="listbox" aria-label="Fruit">
    <li role="option" id="apple"><a>Apple</a></li>
    <li role="option" id="pear"><a>Pear</a></li>
  </ul>
  <div id="dead">Just text</div>
  <div id="listening">Counts quietly</div>
  <div id="delegated" class="js-delegated">Delegated</div>
  <div style="position: relative; width: 200px">
    <button id="under" onclick="document.getElementById('out').textContent = 'under'">Under</button>
    <div id="veil" style="position: absolute; inset: 0"></div>
  </div>
  <script>
    const out = (text) => (document.getElementById('out').textContent = text);
    for (const a of document.querySelectorAll('[role=option] a'))
      a.addEventListener('click', () => out('chose ' + a.textContent));
    // a listener that only counts: nothing in the page changes
    document.getElementById('listening').addEventListener('click', () => (window.counted = (window.counted || 0) + 1));
    // jQuery-style delegation on the document
    document.addEventListener('click', (e) => { if (e.target.closest('.js-delegated')) out('delegated'); });
  </script>`;

async function shop() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Shop</title>${agentTag(bridge)}<body>${SHOP}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url);
  const page = await connectedPage(bridge, server.url);
  const click = async (target: string) =>
    (await exec(bridge, page, 'Input.click', { target })) as { ok: boolean; note?: string };
  return { tab, click };
}

describe('a press lands where a person would press', () => {
  it('a click on an option whose handler sits on the link inside it reaches the link', async () => {
    const { tab, click } = await shop();
    expect(await click('css=#pear')).not.toHaveProperty('note');
    expect(await tab.textContent('#out')).toBe('chose Pear');
  });

  it('a click that reaches no listener and changes nothing says so; a quiet listener or a delegated one does not', async () => {
    const { tab, click } = await shop();
    expect((await click('css=#dead')).note).toMatch(
      /^nothing happened: nothing on div \(e\d+\) or around it listens for a click, and the page did not change$/,
    );
    expect(await click('css=#listening')).not.toHaveProperty('note');
    expect(await tab.evaluate(() => (window as unknown as { counted: number }).counted)).toBe(1);
    expect(await click('css=#delegated')).not.toHaveProperty('note');
    expect(await tab.textContent('#out')).toBe('delegated');
  });

  it('a button under a transparent layer: the result names the layer a person would have clicked', async () => {
    const { click } = await shop();
    expect((await click('css=#under')).note).toMatch(/^note: <div#veil> covers it at \(\d+, \d+\)/);
  });
});
