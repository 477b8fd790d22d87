import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionRow } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { claimPage } from '../helpers/page-wire.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { ensurePageAgentBuilt } from '../page/harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** A scripted page that says who it is in every answer. */
function page(bridgeUrl: string, name: string, identity: { instanceId?: string; secret?: string } = {}) {
  return ScriptedPage.connect(bridgeUrl, {
    ...identity,
    url: `http://localhost:3000/${name}`,
    title: name,
    handler: () => ({ answeredBy: name }),
  });
}

async function whoAnswers(bridgeUrl: string, pageId: string): Promise<string> {
  const agent = await connectAgent(bridgeUrl, { clientName: `asker-${pageId}` });
  const result = await callTool(agent, 'page_exec', { pageId, cmd: 'DOM.getText', args: {} });
  expect(result.isError ?? false, resultText(result)).toBe(false);
  return (result.structuredContent as { result: { answeredBy: string } }).result.answeredBy;
}

describe('page identity across a bridge restart', () => {
  it('pages that reconnect after a SIGKILL in the other order keep their pageIds, and commands reach their own page', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const checkout = await page(first.url, 'checkout');
    const admin = await page(first.url, 'admin');
    expect([checkout.pageId, admin.pageId]).toEqual(['p1', 'p2']);
    await kill(first.child);

    const second = await spawnBridge(dataDir);
    // admin comes back first, as a tab whose reconnect timer fired sooner would
    const adminAgain = await page(second.url, 'admin', { instanceId: admin.instanceId, secret: admin.secret });
    const checkoutAgain = await page(second.url, 'checkout', {
      instanceId: checkout.instanceId,
      secret: checkout.secret,
    });
    expect(adminAgain.pageId).toBe(admin.pageId);
    expect(adminAgain.secret).toBe(admin.secret);
    expect(checkoutAgain.pageId).toBe(checkout.pageId);
    expect(await whoAnswers(second.url, checkout.pageId)).toBe('checkout');
    expect(await whoAnswers(second.url, admin.pageId)).toBe('admin');
  });

  it('never hands a pageId to another page after a restart, and a command to one that is gone names the pages there are', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const left = await page(first.url, 'left');
    const stayed = await page(first.url, 'stayed');
    await kill(first.child);

    const second = await spawnBridge(dataDir);
    const newcomer = await page(second.url, 'newcomer');
    expect(newcomer.pageId).toBe('p3');
    await page(second.url, 'stayed', { instanceId: stayed.instanceId, secret: stayed.secret });
    const agent = await connectAgent(second.url);
    const result = await callTool(agent, 'page_exec', { pageId: left.pageId, cmd: 'DOM.getText', args: {} });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toContain(`"${left.pageId}" is not connected`);
    expect(text).toMatch(new RegExp(`connected pages: .*${stayed.pageId} \\(http://localhost:3000/stayed`));
    expect(text).toContain(`${newcomer.pageId} (http://localhost:3000/newcomer`);
  });

  it('a page that offers a known instance id with the wrong secret after a restart does not get its pageId', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const owner = await page(first.url, 'owner');
    await kill(first.child);

    const second = await spawnBridge(dataDir);
    await expect(claimPage(second.url, { instanceId: owner.instanceId, secret: 'not-the-secret' })).rejects.toThrow(
      /claim answered 403: .*secret does not match/,
    );
    await expect(claimPage(second.url, { instanceId: owner.instanceId })).rejects.toThrow(/claim answered 403/);
    // the owner still gets it back
    const again = await page(second.url, 'owner', { instanceId: owner.instanceId, secret: owner.secret });
    expect(again.pageId).toBe(owner.pageId);
  });

  it('two browser tabs keep their pageIds when the bridge is killed and comes back on its port', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const tag = `<script src="${first.url}/aiti/page.js"></script>`;
    const site = await serveFixture({
      '/checkout': `<!doctype html><html><head><title>Checkout</title>${tag}</head><body><p id="who">checkout</p></body></html>`,
      '/admin': `<!doctype html><html><head><title>Admin</title>${tag}</head><body><p id="who">admin</p></body></html>`,
    });
    const browser = await launchBrowser();
    const idsByTitle = async (url: string) => {
      const res = await http(`${url}/bridge/sessions`, { token: CHILD_TOKEN });
      const rows = (res.body as SessionRow[]).filter((r) => r.active && r.frameId === 'main');
      return Object.fromEntries(rows.map((r) => [r.title ?? '', r.pageId]));
    };
    await (await browser.newPage()).goto(`${site.url}/checkout`);
    await (await browser.newPage()).goto(`${site.url}/admin`);
    await waitFor(async () => Object.keys(await idsByTitle(first.url)).length === 2, 15_000, 'both tabs connected');
    const before = await idsByTitle(first.url);
    await kill(first.child);

    const second = await spawnBridge(dataDir, { port: first.port });
    // the page agents reconnect by themselves, each claiming with the identity its tab kept
    await waitFor(async () => Object.keys(await idsByTitle(second.url)).length === 2, 20_000, 'both tabs back');
    expect(await idsByTitle(second.url)).toEqual(before);
    const agent = await connectAgent(second.url);
    for (const [title, pageId] of Object.entries(before)) {
      const result = await callTool(agent, 'page_exec', { pageId, cmd: 'DOM.getText', args: { target: 'css=#who' } });
      expect(resultText(result).toLowerCase()).toContain(title.toLowerCase());
    }
  }, 60_000);
});
