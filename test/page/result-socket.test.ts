import { beforeAll, describe, expect, it } from 'vitest';
import type { Page as BrowserPage } from 'playwright-core';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** What the browser itself sent the bridge: result POST bodies and result-socket messages, as it reports them. */
function watchResults(tab: BrowserPage) {
  const posts: string[] = [];
  const messages: string[] = [];
  tab.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/bridge/result')) posts.push(request.postData() ?? '');
  });
  tab.on('websocket', (socket) => {
    if (!socket.url().includes('/bridge/result-socket')) return;
    socket.on('framesent', (frame) => messages.push(String(frame.payload)));
  });
  return { posts, messages };
}

async function site(pages: Record<string, string>, prepare?: (tab: BrowserPage) => Promise<void>) {
  const bridge = await startBridge();
  const tag = agentTag(bridge);
  const routes = Object.fromEntries(Object.entries(pages).map(([path, body]) => [path, body.replace('<agent>', tag)]));
  const server = await serveFixture(routes);
  const tab = await (await launchBrowser()).newPage();
  const seen = watchResults(tab);
  await prepare?.(tab);
  const first = Object.keys(pages)[0] ?? '/';
  await tab.goto(server.url + first);
  const page = await connectedPage(bridge, server.url + first);
  const agent = await connectAgent(bridge.url);
  /** Runs a command: its result. */
  const read = async (cmd: string, args: Record<string, unknown> = {}) =>
    (structured(await callTool(agent, 'page_exec', { pageId: page.pageId, cmd, args })).result ?? {}) as Record<
      string,
      unknown
    >;
  /** Runs a command: its result, and how it came (the bridge counts results by the way they came). */
  const exec = async (cmd: string, args: Record<string, unknown> = {}) => {
    const before = { ...bridge.context.requests.received };
    const result = await read(cmd, args);
    const now = bridge.context.requests.received;
    const way = now.socket > before.socket ? 'socket' : now.post > before.post ? 'post' : 'neither';
    return { result, way };
  };
  /** The socket opens on the first command: reads until one result came on it. */
  const socketOpen = () =>
    waitFor(async () => (await exec('DOM.getText', {})).way === 'socket', 5000, 'a result sent on the result socket');
  return { bridge, server, tab, page, agent, read, exec, seen, socketOpen };
}

describe('the result socket: command results over a WebSocket, POST where a message could be lost', () => {
  it('after the first command each result is one message on the socket, and the agent reads it', async () => {
    const { exec, seen, socketOpen } = await site({
      '/': `<!doctype html><title>Socket</title><agent><body>
        <button id="more" onclick="document.getElementById('n').textContent = ++window.count">more</button>
        <p id="n">0</p><script>window.count = 0</script></body>`,
    });
    // the first result goes by POST: the socket opens on the first command
    expect(await exec('DOM.getText', { target: '#n' })).toEqual({ result: { text: '0' }, way: 'post' });
    await socketOpen();
    for (let i = 1; i <= 5; i++) {
      expect((await exec('Input.click', { target: '#more' })).way).toBe('socket');
      // the app's own state, read back through a result that came on the socket
      expect(await exec('DOM.getText', { target: '#n' })).toEqual({ result: { text: String(i) }, way: 'socket' });
    }
    // a message is the result without the page's identity: the socket stands for it, the secret is not repeated
    await waitFor(() => seen.messages.length > 0, 5000, "the browser's report of a socket message");
    const message = JSON.parse(seen.messages.at(-1) ?? '{}') as Record<string, unknown>;
    expect(Object.keys(message).sort()).toEqual(['ok', 'requestId', 'result']);
  });

  it('a result too large for a message (a screenshot) goes by POST and arrives whole', async () => {
    const { exec, seen, socketOpen } = await site({
      '/': `<!doctype html><title>Big</title><agent><body><h1>big</h1><canvas id="c" width="400" height="300"></canvas>
        <script>
          // noise does not compress: the screenshot is well over a socket message's size
          const c = document.getElementById('c').getContext('2d');
          const image = c.createImageData(400, 300);
          for (let i = 0; i < image.data.length; i++) image.data[i] = i % 4 === 3 ? 255 : Math.random() * 256;
          c.putImageData(image, 0, 0);
        </script></body>`,
    });
    await socketOpen();
    const shot = await exec('Page.screenshot', {});
    expect(shot.way).toBe('post');
    expect(shot.result).toMatchObject({ width: expect.any(Number) });
    await waitFor(() => seen.posts.some((body) => body.length > 60_000), 5000, "the browser's report of the POST");
    expect((await exec('DOM.getText', { target: 'h1' })).way).toBe('socket');
  });

  it('a click whose page leaves right after answering: every result arrives, ten navigations in a row', async () => {
    const leave = (here: string, there: string) =>
      `<!doctype html><title>${here}</title><agent><body><h1>${here}</h1>
        <button id="go" onclick="setTimeout(() => { location.href = '/${there}' }, 400)">go</button></body>`;
    const { bridge, server, exec, socketOpen } = await site({
      '/one': leave('one', 'two'),
      '/two': leave('two', 'one'),
    });
    const ways: string[] = [];
    for (let i = 0; i < 10; i++) {
      const here = i % 2 === 0 ? 'one' : 'two';
      await connectedPage(bridge, `${server.url}/${here}`);
      await socketOpen();
      expect((await exec('DOM.getText', { target: 'h1' })).result).toEqual({ text: here });
      // the click answers (after its settle, at most 300 ms) before its timer navigates: on the socket of a
      // document about to unload
      const click = await exec('Input.click', { target: '#go' });
      ways.push(click.way);
    }
    expect(ways).toContain('socket');
  });

  it('a command that starts leaving the page answers by keepalive POST, not by the socket', async () => {
    const { bridge, server, read, exec, socketOpen } = await site({
      '/one': `<!doctype html><title>One</title><agent><body><a id="to" href="/two">two</a></body>`,
      '/two': `<!doctype html><title>Two</title><agent><body><h1>two</h1></body>`,
    });
    await socketOpen();
    const click = await exec('Input.click', { target: '#to' });
    expect(click).toMatchObject({ result: { navigating: `${server.url}/two` }, way: 'post' });
    await connectedPage(bridge, `${server.url}/two`);
    expect((await read('DOM.getText', { target: 'h1' })).text).toBe('two');
  });

  describe('a message lost on its way is posted again', () => {
    /** The page's result socket through a relay that passes messages on until told to swallow them. */
    async function swallowing(tab: BrowserPage) {
      const relay = { swallow: false, close: () => undefined as void };
      await tab.routeWebSocket(/\/bridge\/result-socket/, (socket) => {
        const server = socket.connectToServer();
        socket.onMessage((message) => {
          if (!relay.swallow) server.send(message);
        });
        relay.close = () => void socket.close({ code: 1001, reason: 'gone' });
      });
      return relay;
    }
    const pages = {
      '/one': `<!doctype html><title>One</title><agent><body><h1>one</h1></body>`,
      '/two': `<!doctype html><title>Two</title><agent><body><h1>two</h1></body>`,
    };

    /** A page whose socket is open, then swallows: a read is sent, and its answer is swallowed on the way. */
    async function swallowedRead() {
      let relay: Awaited<ReturnType<typeof swallowing>> | undefined;
      const opened = await site(pages, async (tab) => void (relay = await swallowing(tab)));
      await opened.socketOpen();
      if (!relay) throw new Error('no relay');
      relay.swallow = true;
      let settled = false;
      const answer = opened.read('DOM.getText', { target: 'h1' }).finally(() => (settled = true));
      await sleep(300);
      expect(settled).toBe(false);
      return { ...opened, relay, answer };
    }

    it('when the document unloads: the answer the socket swallowed reaches the agent', async () => {
      const { server, tab, answer } = await swallowedRead();
      await tab.goto(`${server.url}/two`);
      expect(await answer).toEqual({ text: 'one' });
    });

    it('when the socket drops: the answer it swallowed reaches the agent', async () => {
      const { relay, read, answer } = await swallowedRead();
      relay.close();
      expect(await answer).toEqual({ text: 'one' });
      // the next commands open a new socket and answer on it
      relay.swallow = false;
      for (let i = 0; i < 3; i++) expect(await read('DOM.getText', { target: 'h1' })).toEqual({ text: 'one' });
    });
  });
});
