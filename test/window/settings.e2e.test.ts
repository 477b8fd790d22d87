import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { downloadText } from '../helpers/browser.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage, outcomeOf, settled } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('languages', () => {
  it('speaks the system’s 简体中文 by default, switches to English in Settings, and keeps it over a reload', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Ship it?', async: true } });
    const page = await openWindowPage(bridge.uiUrl, { locale: 'zh-CN' });
    await page.getByRole('status').filter({ hasText: '已连接' }).waitFor();
    const card = page.getByRole('article', { name: '来自 claude 的确认' });
    await card.getByRole('button', { name: /是/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');

    await page.getByRole('button', { name: '设置' }).click();
    await page.getByRole('combobox', { name: '语言' }).selectOption('en');
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.getByRole('article', { name: 'Confirm from claude' }).getByRole('button', { name: /Yes/ }).waitFor();
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    expect(await page.getByText('已连接').count()).toBe(0);
  });
});

describe('quick replies', () => {
  it('a reason saved in Settings goes into the reject box with Ctrl+. and 1, and is sent; the most used comes first', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    await page.getByRole('button', { name: 'Settings' }).click();
    const reasons = page.getByRole('group', { name: 'Reject reasons' });
    for (const text of ['Wait for the changelog review', 'Use the staging database']) {
      await reasons.getByPlaceholder('Text of a new quick reply').fill(text);
      await reasons.getByRole('button', { name: 'Add' }).click();
      await reasons.getByText(text).waitFor();
    }
    await page.keyboard.press('Escape');

    for (let round = 0; round < 2; round++) {
      const call = claude.callTool({
        name: 'user_confirm',
        arguments: { prompt: `Migrate ${round}?`, timeoutMs: 60_000 },
      });
      // this round's card: the last round's may still be on screen for a moment, answered
      const card = await settled(
        page
          .getByRole('article', { name: 'Confirm from claude', exact: true })
          .filter({ hasText: `Migrate ${round}?` }),
      );
      await card.click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('Escape');
      await page.keyboard.type('Not yet:');
      await page.keyboard.press('Control+.');
      const menu = card.getByRole('dialog', { name: 'quick replies' });
      await menu.waitFor();
      // the second reason, used once already in the second round, is listed first then
      const wanted = 'Use the staging database';
      const options = await menu.getByRole('option').allInnerTexts();
      const index = options.findIndex((o) => o.includes(wanted));
      expect(index).toBe(round === 0 ? 1 : 0);
      await page.keyboard.press(String(index + 1));
      await expect.poll(() => card.getByLabel('reason').inputValue()).toBe(`Not yet: ${wanted}`);
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-field'))).toBe('reason');
      await page.keyboard.press('Enter');
      expect(outcomeOf(await call)).toMatchObject({ status: 'rejected', reason: 'other', text: `Not yet: ${wanted}` });
    }
    // the window counts a use with its own save, beside the answer: it may land a moment after the answer did
    const uses = async () =>
      (
        (await http(`${bridge.url}/bridge/quick-replies`, { token: bridge.token })).body as {
          replies: Array<{ text: string; uses: number }>;
        }
      ).replies.map((r) => [r.text, r.uses]);
    await expect.poll(uses).toEqual([
      ['Wait for the changelog review', 0],
      ['Use the staging database', 2],
    ]);
  });
});

describe('a new ask in the browser window', () => {
  /** Records what the window asks of the browser's notifications and sound, then lets the real ones run. */
  const spy = `
    window.__alerts = [];
    const Real = window.Notification;
    window.Notification = class extends Real {
      constructor(title, options) { super(title, options); window.__alerts.push({ title, body: options && options.body }); }
      static get permission() { return Real.permission; }
      static requestPermission() { return Real.requestPermission(); }
    };
    const start = OscillatorNode.prototype.start;
    OscillatorNode.prototype.start = function (...args) { window.__alerts.push({ sound: this.frequency.value }); return start.apply(this, args); };
  `;

  it('chimes and notifies when switched on, the notification only while the window is not in front', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl, { init: spy });
    await page.context().grantPermissions(['notifications']);
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByLabel('Sound on a new ask').check();
    await page.getByLabel('Browser notification on a new ask').check();
    await page.keyboard.press('Escape');
    const alerts = () => page.evaluate(() => (window as unknown as { __alerts: unknown[] }).__alerts);

    await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'While you look', async: true } });
    await page.getByRole('article', { name: 'Confirm from claude' }).waitFor();
    await expect.poll(alerts).toEqual([{ sound: 880 }, { sound: 1320 }]);

    // the human switches to another tab: the next ask also comes as a notification
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    const other = await page.context().newPage();
    await other.bringToFront();
    await expect.poll(() => page.evaluate(() => document.hidden || !document.hasFocus())).toBe(true);
    await claude.callTool({ name: 'user_input', arguments: { prompt: 'Name of the release?', async: true } });
    await expect
      .poll(alerts)
      .toEqual([
        { sound: 880 },
        { sound: 1320 },
        { sound: 880 },
        { sound: 1320 },
        { title: 'claude asks', body: 'Name of the release?' },
      ]);
  });
});

describe('History export', () => {
  it('exports what is loaded as Markdown and JSON, of all agents or of one', async () => {
    const bridge = await startBridge();
    await helloAgent(bridge.url, 'claude');
    await helloAgent(bridge.url, 'cursor');
    for (const [to, text] of [
      ['claude', 'Use the design tokens'],
      ['cursor', 'Rename the billing route'],
    ]) {
      expect((await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to, text } })).status).toBe(200);
    }
    const page = await openWindowPage(bridge.uiUrl);
    await page.getByText('Rename the billing route').waitFor();
    const save = async (format: 'Markdown' | 'JSON') => {
      await page.locator('.export-menu summary').click();
      const [file] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: format }).click(),
      ]);
      return { name: file.suggestedFilename(), text: await downloadText(file) };
    };
    const md = await save('Markdown');
    expect(md.name).toMatch(/^aiti-history-all-\d{4}-\d\d-\d\dT\d\d-\d\d\.md$/);
    expect(md.text).toContain('# AITI Bridge — all agents');
    expect(md.text).toMatch(/- \d\d:\d\d:\d\d · you → · claude · pending — Use the design tokens/);
    expect(md.text).toContain('cursor · pending — Rename the billing route');

    await page.getByRole('navigation', { name: 'agents' }).getByRole('button', { name: 'cursor' }).click();
    await page.locator('.message', { hasText: 'Rename the billing route' }).waitFor();
    const json = await save('JSON');
    expect(json.name).toMatch(/^aiti-history-cursor-.*\.json$/);
    const parsed = JSON.parse(json.text) as { scope: string; messages: Array<{ agentId: string; text: string }> };
    expect(parsed.scope).toBe('cursor');
    expect(parsed.messages.map((m) => [m.agentId, m.text])).toEqual([['cursor', 'Rename the billing route']]);
  });
});
