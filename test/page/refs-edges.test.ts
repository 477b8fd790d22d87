import { beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec, openPage } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

const refsOf = async (run: () => Promise<unknown>) =>
  ((await run()) as { matches: Array<{ ref: string }> }).matches.map((m) => m.ref);

// refs in one plain document (re-renders, reloads, 500 refs and more) are in refs.test.ts
describe('refs in frames, without storage, and of collected elements', () => {
  it("a frame's refs carry its frame; sent to another document they are refused, never used there", async () => {
    const bridge = await startBridge();
    const tag = agentTag(bridge);
    const press = (who: string) =>
      `<button onclick="document.getElementById('out').textContent = '${who} ' + (++window.n || (window.n = 1))">Press ${who}</button><p id="out"></p>`;
    // another port: another origin, so the widget is a frame with its own stream and its own counter of refs
    const other = await serveFixture({
      '/widget': `<!doctype html><title>Widget</title>${tag}<body>${press('widget')}`,
    });
    const site = await serveFixture({
      '/': `<!doctype html><title>Host</title>${tag}<body>${press('host')}<iframe src="${other.url}/widget"></iframe>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const page = await connectedPage(bridge, site.url + '/');
    await waitFor(
      () => page.frames.size === 2 && [...page.frames.values()].every((f) => f.stream?.isOpen),
      10_000,
      'the widget frame connected',
    );
    const frameId = [...page.frames.keys()].find((id) => id !== 'main') ?? '';
    const widget = tab.frames().find((f) => f.url().startsWith(other.url));
    const agent = await connectAgent(bridge.url);
    const click = async (args: Record<string, unknown>): Promise<CallToolResult> =>
      callTool(agent, 'page_exec', { cmd: 'Input.click', ...args });

    const snap = await callTool(agent, 'page_snapshot', { frameId });
    const outline = String((snap.structuredContent as { outline?: unknown } | undefined)?.outline);
    const ref = new RegExp(`(${frameId}:e\\d+) button "Press widget"`).exec(outline)?.[1] ?? '';
    expect(ref, outline).not.toBe('');
    // the agent clicks the frame's ref without naming the frame: the bridge sends it there
    expect((await click({ args: { target: ref } })).isError).toBeFalsy();
    expect(await widget?.textContent('#out')).toBe('widget 1');
    // or names the frame and drops the prefix
    const bare = ref.slice(frameId.length + 1);
    expect((await click({ frameId, args: { target: bare } })).isError).toBeFalsy();
    expect(await widget?.textContent('#out')).toBe('widget 2');

    // the top document has numbers of its own; the widget's ref sent there is refused and names its frame
    await refsOf(() => exec(bridge, page, 'DOM.query', { target: 'css=button', all: true }));
    await expect(exec(bridge, page, 'Input.click', { target: ref }, 'main')).rejects.toThrow(
      `ref ${ref} belongs to frame ${frameId}, not to this top document; send it with frameId "${frameId}"`,
    );
    const elsewhere = `${frameId}9:${bare}`;
    await expect(exec(bridge, page, 'Input.click', { target: elsewhere }, frameId)).rejects.toThrow(
      `ref ${elsewhere} belongs to frame ${frameId}9, not to this frame ${frameId}; send it with frameId "${frameId}9"`,
    );
    expect(await tab.textContent('#out')).toBe('');
    expect(await widget?.textContent('#out')).toBe('widget 2');
  });

  it("a page without storage: refs still work, and a reload's refs never reuse the old ones' numbers", async () => {
    const bridge = await startBridge();
    // storage blocked (as "block all cookies" or an opaque origin does): reading sessionStorage throws
    const blocked = `<script>Object.defineProperty(window, 'sessionStorage', { get() { throw new DOMException('storage is blocked', 'SecurityError'); } });</script>`;
    // 2000 refs handed out at once, more than one per 10 ms of the document's life
    const groups = Array.from(
      { length: 4 },
      (_, g) =>
        `<div id="g${g}">${Array.from({ length: 500 }, (_, i) => `<button onclick="document.getElementById('out').textContent = 'clicked ${g * 500 + i}'">Item ${g * 500 + i}</button>`).join('')}</div>`,
    ).join('');
    const site = await serveFixture({
      '/': `<!doctype html><title>No storage</title>${blocked}${agentTag(bridge)}<body>${groups}<p id="out"></p>`,
    });
    const tab = await (await launchBrowser()).newPage();
    let page = await openPage(bridge, tab, site.url + '/');
    const query = async () => {
      const refs: string[] = [];
      for (let g = 0; g < 4; g++)
        refs.push(
          ...(await refsOf(() =>
            exec(bridge, page, 'DOM.query', { target: `css=#g${g} button`, all: true, limit: 500 }),
          )),
        );
      return refs;
    };
    const click = (target: string) => exec(bridge, page, 'Input.click', { target });

    const before = await query();
    expect(new Set(before).size).toBe(2000);
    await click(before[0] ?? '');
    expect(await tab.textContent('#out')).toBe('clicked 0');
    await click(before[1999] ?? '');
    expect(await tab.textContent('#out')).toBe('clicked 1999');

    // the reloaded document is a new page (no storage keeps its identity): wait for the first one's stream to
    // close, so the page found is the new document (openPage would navigate again, and could find the reloaded
    // document while that second navigation unloads it)
    const first = page;
    await tab.reload();
    await waitFor(() => !first.frames.get('main')?.stream?.isOpen, 10_000, "the first document's stream closed");
    page = await connectedPage(bridge, site.url + '/');
    expect(page.pageId).not.toBe(first.pageId);
    const after = await query();
    const number = (ref: string) => Number(ref.slice(1));
    expect(Math.min(...after.map(number))).toBeGreaterThan(Math.max(...before.map(number)));
    // the old document's refs name none of the new one's buttons
    for (const ref of [before[0] ?? '', before[1999] ?? ''])
      await expect(click(ref)).rejects.toThrow(/is from an earlier document of this page/);
    expect(await tab.textContent('#out')).toBe('');
    await click(after[1999] ?? '');
    expect(await tab.textContent('#out')).toBe('clicked 1999');
  });

  it("the page's sessionStorage, as the agent reads it, holds only what the app stored there", async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      '/': `<!doctype html><title>Cart</title>${agentTag(bridge)}<body><button>Buy</button>
        <script>sessionStorage.setItem('cart', '3')</script>`,
    });
    const tab = await (await launchBrowser()).newPage();
    const page = await openPage(bridge, tab, site.url + '/');
    // hands out refs, which moves the page agent's own counter in sessionStorage
    expect(await refsOf(() => exec(bridge, page, 'DOM.query', { target: 'css=button' }))).toHaveLength(1);
    expect(await exec(bridge, page, 'Storage.get', { area: 'session' })).toEqual({ items: { cart: '3' } });
  });

  it('the ref of an element the page dropped and the browser collected is refused, saying why', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({
      '/': `<!doctype html><title>Drop</title>${agentTag(bridge)}<body><div id="list"><button>Gone soon</button></div>`,
    });
    const tab = await (await launchBrowser()).newPage();
    const page = await openPage(bridge, tab, site.url + '/');
    const [ref = ''] = await refsOf(() => exec(bridge, page, 'DOM.query', { target: 'css=button' }));
    await tab.evaluate(() => document.getElementById('list')?.replaceChildren());
    const cdp = await tab.context().newCDPSession(tab);
    await cdp.send('HeapProfiler.collectGarbage');
    await expect(exec(bridge, page, 'Input.click', { target: ref })).rejects.toThrow(
      `ref ${ref} named an element that is no longer in the page`,
    );
  });
});
