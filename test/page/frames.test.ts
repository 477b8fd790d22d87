import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionRow } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

describe('iframes join their top page as frames', () => {
  it('a same-origin and a cross-origin iframe register under one page; snapshot inlines one and points at the other', async () => {
    const bridge = await startBridge();
    const tag = agentTag(bridge);
    // two loopback servers on different ports: different origins for the browser
    const other = await serveFixture({
      '/widget': `<!doctype html><title>Widget</title>${tag}<body><p>Cross-origin widget</p>
        <button onclick="this.textContent = 'Pressed ' + (++window.n || (window.n = 1))">Press me</button></body>`,
    });
    const site = await serveFixture({
      '/': `<!doctype html><title>Host page</title>${tag}<body><h1>Host</h1>
        <iframe title="Same origin" src="/inner"></iframe>
        <iframe title="Other origin" src="${other.url}/widget"></iframe></body>`,
      '/inner': `<!doctype html>${tag}<body><label>Inner field <input name="inner"></label></body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const page = await connectedPage(bridge, site.url + '/');
    await waitFor(
      () => page.frames.size === 3 && [...page.frames.values()].every((f) => f.stream?.isOpen),
      10_000,
      'both frames connected',
    );

    const sessions = (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as SessionRow[];
    const rows = sessions.filter((s) => s.pageId === page.pageId);
    expect(rows.map((r) => r.url).sort()).toEqual([`${other.url}/widget`, `${site.url}/`, `${site.url}/inner`].sort());
    expect(new Set(rows.map((r) => r.pageId)).size).toBe(1);
    expect(bridge.context.pages.all()).toHaveLength(1);

    const agent = await connectAgent(bridge.url);
    const snap = structured(await callTool(agent, 'page_snapshot'));
    const outline = String(snap.outline);
    if (process.env.SHOW) console.error(outline);
    expect(outline).toMatch(/iframe "Same origin" \/inner\n\s+e\d+ textbox "Inner field"/);
    const frames = snap.frames as Array<{ frameId: string; url: string }>;
    const widget = frames.find((f) => f.url === `${other.url}/widget`);
    expect(widget?.frameId).toMatch(/^f\d+$/);
    expect(outline).toContain(`page_snapshot with frameId "${widget?.frameId}"`);

    // the cross-origin frame is driven through its own stream
    const inner = structured(await callTool(agent, 'page_snapshot', { frameId: widget?.frameId }));
    expect(String(inner.outline)).toContain('"Cross-origin widget"');
    const ref = /(e\d+) button "Press me"/.exec(String(inner.outline))?.[1];
    await callTool(agent, 'page_exec', { frameId: widget?.frameId, cmd: 'Input.click', args: { target: ref } });
    const frame = tab.frames().find((f) => f.url().startsWith(other.url));
    expect(await frame?.textContent('button')).toBe('Pressed 1');

    // and a ref from the top snapshot reaches into the same-origin iframe
    const innerRef = /(e\d+) textbox "Inner field"/.exec(outline)?.[1];
    await callTool(agent, 'page_exec', { cmd: 'Input.type', args: { target: innerRef, text: 'typed from the top' } });
    const same = tab.frames().find((f) => f.url() === `${site.url}/inner`);
    expect(await same?.inputValue('input')).toBe('typed from the top');
  });

  it('an iframe whose parent has no page agent becomes a page of its own', async () => {
    const bridge = await startBridge();
    const other = await serveFixture({
      '/alone': `<!doctype html><title>Alone</title>${agentTag(bridge)}<p>alone</p>`,
    });
    const site = await serveFixture({
      '/': `<!doctype html><title>No agent here</title><iframe src="${other.url}/alone"></iframe>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const page = await connectedPage(bridge, `${other.url}/alone`, 15_000);
    expect([...page.frames.keys()]).toEqual(['main']);
  });

  it('an iframe of an untrusted origin does not get the page secret: it connects on its own and is held', async () => {
    const bridge = await startBridge();
    const tag = agentTag(bridge);
    // a sandboxed iframe has an opaque origin ("null"): neither this page's origin nor a loopback one
    const child = `<!doctype html>${tag}<p>sandboxed</p>`.replace(/"/g, '&quot;');
    const site = await serveFixture({
      '/': `<!doctype html><title>Host</title>${tag}<iframe sandbox="allow-scripts" srcdoc="${child}"></iframe>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    const host = await connectedPage(bridge, site.url + '/');
    await waitFor(() => bridge.context.pages.all().length === 2, 15_000, 'the sandboxed frame connected on its own');
    expect([...host.frames.keys()]).toEqual(['main']);
    const other = bridge.context.pages.all().find((p) => p !== host);
    expect(other && bridge.context.pages.isOperable(other)).toBe(false);
  });
});
