import type { ServerResponse } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { sleep, waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from '../page/harness.js';
import { launchBrowserWithEvilSite, serveEvil } from './evil-site.js';

beforeAll(() => ensurePageAgentBuilt(), 120_000);

/** High 1: a website frames the app under development and answers the page agent's frame-hello itself. */

const devApp = (tag: string) => `<!doctype html><title>Dev app</title>${tag}<p>dev data</p>`;

/** What an attacker's bridge would answer: a page stream with a command in it. */
function evilStream(_req: unknown, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'access-control-allow-origin': '*' });
  res.write(`event: hello\ndata: ${JSON.stringify({ pageId: 'p1', frameId: 'f1', operable: true })}\n\n`);
  const command = { requestId: 'r1', cmd: 'Runtime.evaluate', args: { expression: 'document.body.innerText' } };
  res.write(`event: command\ndata: ${JSON.stringify(command)}\n\n`);
}

function evilSink(_req: unknown, res: ServerResponse): void {
  res.writeHead(204, { 'access-control-allow-origin': '*' });
  res.end();
}

describe('a website that frames the app cannot take over its page agent', () => {
  it('a welcome naming the website as the bridge is ignored: the app talks only to its own bridge', async () => {
    const bridge = await startBridge();
    const app = await serveFixture({ '/': devApp(agentTag(bridge)) });
    const evil = await serveEvil({
      '/': `<!doctype html><title>Free prizes</title><script>
        addEventListener('message', (e) => {
          if (!e.data || e.data.aiti !== 'frame-hello') return;
          const session = { base: location.origin + '/evil', pageId: 'p1', secret: 'guessed', instanceId: 'evil-1', frameId: 'f1', operable: true };
          e.source.postMessage({ aiti: 'frame-welcome', session }, '*');
        });
      </script><iframe src="${app.url}/"></iframe>`,
      '/evil/bridge/sse': evilStream,
      '/evil/bridge/result': evilSink,
      '/evil/bridge/event': evilSink,
      '/evil/bridge/claim': evilSink,
      '/evil/bridge/register': evilSink,
    });
    const tab = await (await launchBrowserWithEvilSite()).newPage();
    await tab.goto(`${evil.evilUrl}/`);

    // the framed app gives up on that parent and connects to its own bridge as a page of its own
    const page = await connectedPage(bridge, `${app.url}/`, 15_000);
    expect([...page.frames.keys()]).toEqual(['main']);
    await sleep(1000);
    expect(evil.requests).toEqual([]);
  });

  it("a welcome into the website's own bridge page is refused: that page is held, so the app joins nothing", async () => {
    const bridge = await startBridge();
    const app = await serveFixture({ '/': devApp(agentTag(bridge)) });
    const evil = await serveEvil({
      '/': `<!doctype html><title>Free prizes</title><script>
        const bridge = ${JSON.stringify(bridge.url)};
        const post = (path, body) => fetch(bridge + path, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(body) });
        const claimed = (async () => {
          const claim = await (await post('/bridge/claim', { instanceId: 'evil-1', pageKey: 'k', url: location.href })).json();
          await post('/bridge/register', { pageId: claim.pageId, secret: claim.secret, frameIds: ['f1'] });
          return claim;
        })();
        addEventListener('message', async (e) => {
          if (!e.data || e.data.aiti !== 'frame-hello') return;
          const claim = await claimed;
          const session = { base: bridge, pageId: claim.pageId, secret: claim.secret, instanceId: 'evil-1', frameId: 'f1', operable: true };
          e.source.postMessage({ aiti: 'frame-welcome', session }, '*');
        });
      </script><iframe src="${app.url}/"></iframe>`,
    });
    const tab = await (await launchBrowserWithEvilSite()).newPage();
    await tab.goto(`${evil.evilUrl}/`);

    const own = await connectedPage(bridge, `${app.url}/`, 15_000);
    const evilPage = bridge.context.pages.all().find((p) => p.instanceId === 'evil-1');
    expect(evilPage?.origin).toBe(evil.evilUrl);
    expect(evilPage && bridge.context.pages.isOperable(evilPage)).toBe(false);
    await waitFor(() => own.frames.get('main')?.stream?.isOpen === true, 5000, 'the app on its own stream');
    await sleep(500);
    expect(evilPage?.frames.get('f1')?.stream?.isOpen).toBeFalsy();
  });
});
