import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

const PAGE = (tag: string) => `<!doctype html><title>Watched</title>${tag}<body><script>
  console.debug('debug line');
  console.log('count %d of %s', 3, 'items', { a: 1 });
  console.warn('careful');
  console.error(new Error('shown in the console'));
  fetch('/api/ok', { method: 'POST', body: 'twelve bytes' });
  fetch('/api/missing');
  fetch('http://127.0.0.1:1/refused').catch(() => {});
  const xhr = new XMLHttpRequest(); xhr.open('GET', '/api/ok'); xhr.send();
  setTimeout(() => { throw new TypeError('boom in a timer') }, 10);
  Promise.reject(new Error('nobody caught me'));
</script></body>`;

describe('watching: console, errors and network reach the bridge buffers', () => {
  it('records every console level, uncaught errors, rejections, fetch and XHR; readable after the tab closed', async () => {
    const bridge = await startBridge();
    const server = await serveFixture({
      '/': PAGE(agentTag(bridge)),
      '/api/ok': (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '11' });
        res.end('{"ok":true}');
      },
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(server.url + '/');
    const page = await connectedPage(bridge, server.url + '/');
    await waitFor(
      () => (bridge.context.buffers.peek(page.pageId)?.network.length ?? 0) >= 4,
      8000,
      'four requests recorded',
    );
    await waitFor(
      () => (bridge.context.buffers.peek(page.pageId)?.errors.length ?? 0) >= 2,
      8000,
      'two errors recorded',
    );
    await tab.close();

    const agent = await connectAgent(bridge.url);
    const logs = structured(await callTool(agent, 'page_logs')).entries as Array<{
      level: string;
      text: string;
      stack?: string;
    }>;
    const byText = (text: string) => logs.find((e) => e.text.includes(text));
    expect(byText('debug line')?.level).toBe('debug');
    expect(byText('count 3 of items')?.text).toBe('count 3 of items {"a":1}');
    expect(byText('careful')?.level).toBe('warn');
    expect(byText('shown in the console')).toMatchObject({
      level: 'error',
      stack: expect.stringContaining('Error: shown'),
    });
    expect(byText('boom in a timer')).toMatchObject({ level: 'error', text: 'TypeError: boom in a timer' });
    expect(byText('nobody caught me')?.text).toBe('Unhandled rejection: Error: nobody caught me');

    const errorsOnly = structured(await callTool(agent, 'page_logs', { level: 'warn' })).entries as Array<{
      level: string;
    }>;
    expect(new Set(errorsOnly.map((e) => e.level))).toEqual(new Set(['warn', 'error']));

    const network = structured(await callTool(agent, 'page_network')).entries as Array<Record<string, unknown>>;
    expect(network).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'fetch',
          method: 'POST',
          url: `${server.url}/api/ok`,
          status: 200,
          requestSize: 12,
          responseSize: 11,
        }),
        expect.objectContaining({
          type: 'fetch',
          method: 'GET',
          url: `${server.url}/api/missing`,
          status: 404,
          ok: false,
        }),
        expect.objectContaining({
          type: 'fetch',
          url: 'http://127.0.0.1:1/refused',
          status: 0,
          error: expect.any(String),
        }),
        expect.objectContaining({
          type: 'xhr',
          method: 'GET',
          url: `${server.url}/api/ok`,
          status: 200,
          responseSize: 11,
        }),
      ]),
    );
    // the agent's own traffic to the bridge is not the page's
    expect(network.some((e) => String(e.url).startsWith(bridge.url))).toBe(false);
  });
});
