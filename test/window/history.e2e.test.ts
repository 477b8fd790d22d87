import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { InboxResult } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { ensureWindowBuilt } from './build-window.js';
import { openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** history rows whose text is exactly `text` */
const rows = (page: Page, text: string) => page.locator('.message-text').getByText(text, { exact: true });

describe('inbox history in the window', () => {
  it(
    'shows the newest 100, pages back through the journal, and searches what is loaded',
    { timeout: 120_000 },
    async () => {
      const bridge = await startBridge();
      const claude = await connectAgent(bridge.url, { clientName: 'claude' });
      await claude.callTool({ name: 'aiti_hello', arguments: { agentId: 'claude' } });
      for (let i = 1; i <= 130; i++) {
        const res = await http(`${bridge.url}/bridge/push`, {
          token: bridge.token,
          body: { to: 'claude', text: `note #${i}` },
        });
        expect(res.status).toBe(200);
      }
      const page = await openWindowPage(bridge.uiUrl);
      await rows(page, 'note #130').waitFor();
      expect(await page.locator('.message').count()).toBe(100);
      expect(await rows(page, 'note #30').count()).toBe(0);

      await page.getByRole('button', { name: 'Older messages' }).click();
      await rows(page, 'note #1').waitFor();
      expect(await page.locator('.message').count()).toBe(130);
      await page.getByText('Beginning of history').waitFor();

      await page.getByRole('searchbox', { name: 'search history' }).fill('#12');
      // #12 and #120–#129
      await page.getByText('11 found in 130 loaded').waitFor();
      expect(await page.locator('.message').count()).toBe(11);
    },
  );

  it('per agent: a tab shows only that agent, with its status counts', async () => {
    const bridge = await startBridge();
    for (const agentId of ['claude', 'cursor']) {
      const client = await connectAgent(bridge.url, { clientName: agentId });
      await client.callTool({ name: 'aiti_hello', arguments: { agentId } });
    }
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: 'only for claude' } });
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'cursor', text: 'only for cursor' } });
    const page = await openWindowPage(bridge.uiUrl);
    await rows(page, 'only for cursor').waitFor();
    await page
      .getByRole('navigation', { name: 'agents' })
      .getByRole('button', { name: /^cursor/ })
      .click();
    await page.getByText('1 pending').waitFor();
    expect(await rows(page, 'only for claude').count()).toBe(0);
    expect(await rows(page, 'only for cursor').count()).toBe(1);
  });

  it('after the stream drops it says "reconnecting", then catches up with nothing lost or doubled', async () => {
    const bridge = await startBridge();
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    await claude.callTool({ name: 'aiti_hello', arguments: { agentId: 'claude' } });
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: 'before the drop' } });
    const page = await openWindowPage(bridge.uiUrl);
    await rows(page, 'before the drop').waitFor();

    const reconnecting = page.getByRole('status').filter({ hasText: 'Reconnecting' }).waitFor();
    bridge.context.hub.close(); // every role=ai stream ends, as when the network blips
    await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: 'during the drop' } });
    await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Asked during the drop?', async: true } });
    await reconnecting;

    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('article', { name: 'Confirm from claude' }).waitFor();
    await rows(page, 'during the drop').waitFor();
    expect(await rows(page, 'before the drop').count()).toBe(1);
    expect(await rows(page, 'during the drop').count()).toBe(1);
    expect(await page.getByRole('article').count()).toBe(1);
  });
});

describe('the token', () => {
  it('a token the bridge does not hold says so instead of retrying forever, and is never sent', async () => {
    const bridge = await startBridge();
    const page = await (await launchBrowser()).newPage();
    const sent: string[] = [];
    page.on('request', (request) => sent.push(request.url()));
    await page.goto(`${bridge.url}/aiti/ui/#token=not-the-token`);
    await page.getByText("could not prove that it holds this window's token", { exact: false }).waitFor();
    expect(sent.join('\n')).not.toContain('not-the-token');
  });

  it('without a token the window says where to get one', async () => {
    const bridge = await startBridge();
    const page = await (await launchBrowser()).newPage();
    await page.goto(`${bridge.url}/aiti/ui/`);
    await page.getByText("This window needs the bridge's token").waitFor();
  });
});

describe('pages, origins and the composer shortcut', () => {
  it('lists a held origin and allows it with one click', async () => {
    const bridge = await startBridge();
    await ScriptedPage.connect(bridge.url, { url: 'http://192.168.1.20:3000/', origin: 'http://192.168.1.20:3000' });
    const page = await openWindowPage(bridge.uiUrl);
    const held = page.locator('.held li', { hasText: 'http://192.168.1.20:3000' });
    await held.waitFor();
    await held.getByRole('button', { name: 'Allow' }).click();
    await held.waitFor({ state: 'detached' });
    expect(bridge.context.pages.heldOrigins()).toEqual([]);
  });

  it('an aiti:compose event or a #compose hash focuses the composer addressed to all', async () => {
    const bridge = await startBridge();
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    await claude.callTool({ name: 'aiti_hello', arguments: { agentId: 'claude' } });
    const page = await openWindowPage(bridge.uiUrl);
    const recipient = page.getByRole('combobox', { name: 'recipient' });
    await page.locator('.panel[aria-label="agents"] .row-title', { hasText: 'claude' }).click();
    expect(await recipient.inputValue()).toBe('claude');

    await page.evaluate(() => window.dispatchEvent(new CustomEvent('aiti:compose', { detail: { to: 'all' } })));
    expect(await recipient.inputValue()).toBe('all');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('message');

    await page.locator('body').click();
    await page.evaluate(() => (window.location.hash = 'compose'));
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'message');
    await page.keyboard.type('from the hash');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'delivery' }).getByText('claude').waitFor();
    const inbox = await claude.callTool({ name: 'aiti_inbox', arguments: {} });
    const { messages } = InboxResult.parse((inbox as { structuredContent?: unknown }).structuredContent);
    expect(messages.map((m) => m.text)).toEqual(['from the hash']);
  });
});
