import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** A 1×1 PNG, as a screenshot pasted into the composer arrives. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('the strip of open asks', () => {
  it('lists agent · kind · time left, soonest first; J jumps to the soonest card, J again to the next', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const cursor = await helloAgent(bridge.url, 'cursor');
    const ask = (client: typeof claude, name: string, prompt: string, timeoutMs: number) =>
      client.callTool({ name, arguments: { prompt, timeoutMs, async: true } });
    await ask(claude, 'user_input', 'Branch name?', 600_000);
    await ask(cursor, 'user_confirm', 'Drop the table?', 90_000);
    await ask(claude, 'user_confirm', 'Deploy now?', 300_000);
    const page = await openWindowPage(bridge.uiUrl, { height: 600 });
    const strip = page.getByRole('navigation', { name: 'open asks, soonest first' });
    const chips = strip.getByRole('button');
    await expect.poll(() => chips.count()).toBe(3);
    const texts = (await chips.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    expect(texts.map((t) => t.replace(/\d+:\d\d$/, 'T'))).toEqual([
      'cursor Confirm T',
      'claude Confirm T',
      'claude Input T',
    ]);
    expect(texts[0]).toMatch(/1:(2\d|30)$/);

    await page.locator('body').click({ position: { x: 1, y: 1 } });
    await page.keyboard.press('j');
    const drop = page.locator('.card', { hasText: 'Drop the table?' });
    await drop.and(page.locator('.is-active')).waitFor();
    // the strip hears of the active card in the render after the card's (Cards tells App in an effect)
    await expect.poll(() => chips.first().getAttribute('aria-current')).toBe('true');
    await page.keyboard.press('j');
    await page.locator('.card.is-active', { hasText: 'Deploy now?' }).waitFor();
    // a click on the last chip brings its card into view, with the keys
    await chips.nth(2).click();
    const branch = page.locator('.card', { hasText: 'Branch name?' });
    await branch.and(page.locator('.is-active')).waitFor();
    expect(await branch.isVisible()).toBe(true);
  });

  it('each agent has its own colour, on its cards and in the strip; async asks look unlike sync ones', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const cursor = await helloAgent(bridge.url, 'cursor');
    // a sync ask: the call is still waiting when the test ends and the client closes
    void claude
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Waiting on you', timeoutMs: 60_000 } })
      .catch(() => undefined);
    await cursor.callTool({ name: 'user_confirm', arguments: { prompt: 'For later', async: true } });
    const page = await openWindowPage(bridge.uiUrl);
    const sync = page.locator('.card', { hasText: 'Waiting on you' });
    const later = page.locator('.card', { hasText: 'For later' });
    await sync.waitFor();
    await later.waitFor();
    const dot = (card: typeof sync) =>
      card.locator('.agent-dot').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(await dot(sync)).not.toBe(await dot(later));
    const stripDot = page.locator('.strip-ask', { hasText: 'claude' }).locator('.agent-dot');
    expect(await stripDot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(await dot(sync));
    expect(await sync.locator('.wait-tag').innerText()).toBe('agent waits');
    expect(await later.locator('.wait-tag').innerText()).toBe('async');
  });
});

describe('what a card and History show', () => {
  it('the page title is on the card, and at 360 px the agent name shows whole while the address gives way', async () => {
    const bridge = await startBridge();
    const tab = await ScriptedPage.connect(bridge.url, {
      url: 'http://localhost:5173/settings/billing/invoices/export?range=last-quarter',
      title: 'Billing · Invoice export',
    });
    const agent = await helloAgent(bridge.url, 'claude-code-frontend-2', { pageId: tab.pageId });
    await agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Export?', async: true } });
    const page = await openWindowPage(bridge.uiUrl, { width: 360, height: 800 });
    const card = page.getByRole('article', { name: 'Confirm from claude-code-frontend-2' });
    await card.getByText('Billing · Invoice export').waitFor();
    const name = card.locator('.card-agent');
    // whole: not cut, not ellipsized, and inside the card (which clips what sticks out)
    const fits = await name.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const card = el.closest('.card')?.getBoundingClientRect();
      return el.scrollWidth <= el.clientWidth && r.width > 0 && !!card && r.right <= card.right && r.left >= card.left;
    });
    expect(fits).toBe(true);
    expect(await name.innerText()).toBe('claude-code-frontend-2');
  });

  it('20 choices make a grid inside the card, every label whole', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const choices = Array.from({ length: 20 }, (_, i) => `Migration ${i + 1}: add the ${'long '.repeat(i % 4)}column`);
    await claude.callTool({
      name: 'user_choose',
      arguments: { prompt: 'Which?', choices, multiple: true, async: true },
    });
    for (const width of [1280, 360]) {
      const page = await openWindowPage(bridge.uiUrl, { width, height: 900 });
      const card = page.getByRole('article', { name: 'Choose from claude' });
      await card.waitFor();
      const problems = await card.evaluate((el) => {
        const box = el.getBoundingClientRect();
        return Array.from(el.querySelectorAll<HTMLElement>('.option')).flatMap((o) => {
          const r = o.getBoundingClientRect();
          const label = o.querySelector<HTMLElement>('.option-label');
          const clipped = label && (label.scrollHeight > label.clientHeight + 1 || o.scrollHeight > o.clientHeight + 1);
          return r.left < box.left || r.right > box.right + 0.5 || clipped ? [o.innerText] : [];
        });
      });
      expect(problems, `${width} px`).toEqual([]);
    }
  });

  it('user_notify is on record in History and over a reload; its notice stays in the list until dismissed', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    await claude.callTool({ name: 'user_notify', arguments: { title: 'Build', body: 'Tests are green' } });
    // a count in the top bar, and the notice said once in a polite live region; the list opens on a click
    const count = page.locator('.notices-button');
    await expect.poll(() => count.getAttribute('aria-label'), { timeout: 10_000 }).toContain('1 notice');
    await page
      .locator('[aria-live="polite"]')
      .filter({ hasText: 'Notice from claude: Build. Tests are green' })
      .waitFor();
    const notice = page.getByRole('list', { name: 'notifications' }).getByText('Tests are green');
    expect(await notice.count()).toBe(0);
    await count.click();
    await notice.waitFor();
    const row = page.locator('.message.notify', { hasText: 'Tests are green' });
    await row.waitFor();
    expect(await row.innerText()).toContain('Build');
    await page.reload();
    await page.locator('.connection.conn-live').waitFor();
    await expect.poll(() => count.getAttribute('aria-label')).toContain('1 notice');
    await row.waitFor();
    await count.click();
    await page.getByRole('button', { name: 'dismiss Build' }).click();
    await page.reload();
    await page.locator('.connection.conn-live').waitFor();
    await row.waitFor();
    await expect.poll(() => count.getAttribute('aria-label')).toContain('0 notices');
    // the agent's own notice is no message for it to read
    const status = await claude.callTool({ name: 'bridge_status', arguments: {} });
    expect(JSON.stringify(status)).not.toContain('unread message');
  });

  it('a push to all is one History row naming each agent, with its image shown', async () => {
    const bridge = await startBridge();
    await helloAgent(bridge.url, 'claude');
    await helloAgent(bridge.url, 'cursor');
    const pushed = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: { text: 'Use this logo', images: [{ mimeType: 'image/png', data: PNG }] },
    });
    expect(pushed.status).toBe(200);
    const page = await openWindowPage(bridge.uiUrl);
    const row = page.locator('.message.push-row', { hasText: 'Use this logo' });
    await row.waitFor();
    expect(await page.locator('.message', { hasText: 'Use this logo' }).count()).toBe(1);
    expect((await row.locator('.push-recipient').allInnerTexts()).map((t) => t.replace(/\s+/g, ' '))).toEqual([
      expect.stringMatching(/^(claude|cursor) pending$/),
      expect.stringMatching(/^(claude|cursor) pending$/),
    ]);
    const image = row.locator('img.thumb');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    // one agent's tab still lists its own copy
    await page.getByRole('navigation', { name: 'agents' }).getByRole('button', { name: 'cursor' }).click();
    await page.locator('.message:not(.push-row)', { hasText: 'Use this logo' }).waitFor();
  });
});
