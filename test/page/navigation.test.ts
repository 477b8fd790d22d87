import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

async function site() {
  const bridge = await startBridge();
  const tag = agentTag(bridge);
  const server = await serveFixture({
    '/one': `<!doctype html><title>One</title>${tag}<body><h1>Page one</h1><a href="/two">to two</a>
      <p id="section">section</p><script>console.log('hello from one')</script></body>`,
    '/two': `<!doctype html><title>Two</title>${tag}<body><h1>Page two</h1>
      <button onclick="history.pushState({}, '', '/two/tab')">tab</button></body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url + '/one');
  const page = await connectedPage(bridge, server.url + '/one');
  const agent = await connectAgent(bridge.url);
  const exec = async (cmd: string, args: Record<string, unknown> = {}) =>
    (structured(await callTool(agent, 'page_exec', { cmd, args })).result ?? {}) as Record<string, unknown>;
  return { bridge, server, tab, page, agent, exec };
}

describe('navigation: the page keeps its identity across documents', () => {
  it('navigate, back, forward and reload complete when the new document connects, on the same pageId', async () => {
    const { bridge, server, tab, page, exec } = await site();

    expect(await exec('Page.navigate', { url: '/two' })).toMatchObject({ url: `${server.url}/two`, reloaded: true });
    expect(await tab.title()).toBe('Two');
    expect(await exec('Page.back')).toMatchObject({ url: `${server.url}/one`, reloaded: true });
    expect(await tab.title()).toBe('One');
    expect(await exec('Page.forward')).toMatchObject({ url: `${server.url}/two` });
    expect(await exec('Page.reload')).toMatchObject({ url: `${server.url}/two`, reloaded: true });

    expect(bridge.context.pages.all().map((p) => p.pageId)).toEqual([page.pageId]);
  });

  it('a same-document navigation (hash) answers from the same document', async () => {
    const { server, exec } = await site();
    expect(await exec('Page.navigate', { url: '#section' })).toEqual({
      url: `${server.url}/one#section`,
      reloaded: false,
    });
  });

  it('a click that leaves the page, then a snapshot: the snapshot waits for the new document', async () => {
    const { bridge, server, agent, page, exec } = await site();
    const outline = String(structured(await callTool(agent, 'page_snapshot')).outline);
    const ref = /(e\d+) link "to two"/.exec(outline)?.[1];
    // the click says where the page is going: the agent knows a new document is coming
    expect(await exec('Input.click', { target: ref })).toMatchObject({ navigating: expect.stringMatching(/\/two$/) });
    // while the page reloads no page is connected, so the agent names it (as it would from any earlier result)
    await connectedPage(bridge, `${server.url}/two`);
    const after = structured(await callTool(agent, 'page_snapshot', { pageId: page.pageId }));
    expect(after.title).toBe('Two');
    expect(String(after.outline)).toContain('heading[1] "Page two"');
  });

  it('console entries of an earlier document are still there after navigating and closing', async () => {
    const { agent, tab, exec } = await site();
    await exec('Page.navigate', { url: '/two' });
    await tab.close();
    const logs = structured(await callTool(agent, 'page_logs'));
    expect(logs.entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ level: 'log', text: 'hello from one' })]),
    );
  });

  it('navigating to another origin answers at once: the page there is a new page', async () => {
    const { bridge, server, tab, page } = await site();
    const other = await serveFixture({
      '/': `<!doctype html><title>Elsewhere</title>${agentTag(bridge)}<p>elsewhere</p>`,
    });
    // straight through the bridge: over MCP, leaving the origin first asks the human (a dangerous command)
    const result = await bridge.context.requests.send(page, 'Page.navigate', { url: other.url + '/' });
    expect(result).toMatchObject({ url: other.url + '/', reloaded: true, note: expect.stringContaining('new page') });
    const next = await connectedPage(bridge, other.url + '/');
    expect(next.pageId).not.toBe(page.pageId);
    expect(await tab.title()).toBe('Elsewhere');
    expect(server.url).not.toBe(other.url);
  });
});
