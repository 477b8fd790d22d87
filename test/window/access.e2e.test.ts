import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ensureWindowBuilt } from './build-window.js';
import { openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/**
 * The contrast of each selector's text against what is behind it, measured in the page: colours go through a
 * canvas (so color-mix and alpha resolve exactly as drawn), backgrounds are composited up the ancestors.
 */
async function contrasts(page: Page, selectors: string[]): Promise<Record<string, number>> {
  return page.evaluate((list) => {
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const ctx = canvas.getContext('2d', { willReadFrequently: true });
    if (!ctx) throw new Error('no canvas');
    const rgba = (color: string): [number, number, number, number] => {
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = '#000';
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, 1, 1);
      const [r = 0, g = 0, b = 0, a = 0] = ctx.getImageData(0, 0, 1, 1).data;
      return [r, g, b, a / 255];
    };
    const over = (top: number[], bottom: number[]) =>
      [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (bottom[i] ?? 0) * (1 - (top[3] ?? 1)));
    const background = (el: Element | null): number[] => {
      const layers: number[][] = [];
      for (let node = el; node; node = node.parentElement) {
        const c = rgba(getComputedStyle(node).backgroundColor);
        if ((c[3] ?? 0) > 0) layers.push(c);
        if ((c[3] ?? 0) >= 1) break;
      }
      let base = [255, 255, 255];
      for (const layer of layers.reverse()) base = over(layer, base);
      return base;
    };
    const lum = (c: number[]) => {
      const [r = 0, g = 0, b = 0] = c.map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out: Record<string, number> = {};
    for (const selector of list) {
      const el = document.querySelector(selector);
      if (!el) throw new Error(`nothing matches ${selector}`);
      const bg = background(el);
      const fg = over(rgba(getComputedStyle(el).color), bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      out[selector] = Math.round((((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05)) * 100) / 100;
    }
    return out;
  }, selectors);
}

describe('access', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every text the window shows meets WCAG AA contrast (4.5:1) in the ${scheme} theme`, async () => {
      const bridge = await startBridge();
      const claude = await connectAgent(bridge.url, { clientName: 'claude' });
      await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: 'read' } });
      await claude.callTool({ name: 'aiti_inbox', arguments: {} });
      await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', text: 'unread' } });
      await claude.callTool({
        name: 'user_confirm',
        arguments: { prompt: 'Run `npm test`?', async: true, timeoutMs: 25_000 },
      });
      const ended = await claude.callTool({
        name: 'user_confirm',
        arguments: { prompt: 'Already over?', async: true, timeoutMs: 600_000 },
      });
      await claude.callTool({
        name: 'user_input',
        arguments: { prompt: 'And a name?', async: true, timeoutMs: 600_000 },
      });
      bridge.context.asks.create({
        kind: 'page_command',
        agentId: 'claude',
        prompt: 'claude wants to run a script in the page',
        command: { cmd: 'Runtime.evaluate', args: { expression: '1' } },
      });
      const page = await openWindowPage(bridge.uiUrl, { colorScheme: scheme });
      const card = page.getByRole('article', { name: 'Confirm from claude' }).first();
      await card.click({ position: { x: 5, y: 5 } });
      await card.getByRole('button', { name: 'Reject…' }).click();
      await http(`${bridge.url}/bridge/answer`, {
        token: bridge.token,
        body: { askId: (ended.structuredContent as { askId: string }).askId, action: 'answer', value: true },
      });
      await page.locator('.outcome-chip').first().waitFor();
      // the answer reaches the inbox list after the card's outcome (it is journaled first)
      await page.locator('.message-kind.kind-user_answer').first().waitFor();
      await page.locator('.countdown.soon, .countdown.urgent').first().waitFor({ timeout: 10_000 });
      const measured = await contrasts(page, [
        '.status-pending',
        '.status-delivered',
        '.button.danger',
        '.button.primary',
        '.card .hint',
        '.card .muted',
        '.kind-badge',
        '.active-mark',
        '.countdown-time',
        '.outcome-chip',
        '.card .markdown code',
        '.conn-live',
        '.message-kind',
        '.message-kind.kind-user_answer',
        '.tab',
        '.kind-page_command .kind-badge',
      ]);
      const failing = Object.entries(measured).filter(([, ratio]) => ratio < 4.5);
      expect(failing).toEqual([]);
    });
  }

  it('announces a new ask in a polite live region, and every control is reachable with Tab', async () => {
    const bridge = await startBridge();
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    const page = await openWindowPage(bridge.uiUrl);
    await claude.callTool({
      name: 'user_input',
      arguments: { prompt: 'Name of the release branch?', async: true, timeoutMs: 60_000 },
    });
    const live = page.locator('[aria-live="polite"]');
    await live.filter({ hasText: 'New input question from claude: Name of the release branch?' }).waitFor();

    const reached = new Set<string>();
    await page.locator('body').focus();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      reached.add(
        await page.evaluate(() => {
          const el = document.activeElement;
          return el
            ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}`
            : '';
        }),
      );
    }
    const names = [...reached].join('\n');
    for (const expected of [
      'button:Here',
      'article:Input from claude',
      'textarea:answer',
      'button:Reject…',
      'button:Answer',
      'textarea:message',
      'input:search history',
    ])
      expect(names).toContain(expected);
  });

  it('at 360 px the side panels fold into a drawer that opens, shows the agents, and closes on Esc', async () => {
    const bridge = await startBridge();
    await connectAgent(bridge.url, { clientName: 'claude' });
    const page = await openWindowPage(bridge.uiUrl, { width: 360 });
    const agents = page.getByRole('region', { name: 'agents', exact: true });
    expect(await agents.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Agents', exact: true }).click({ timeout: 5000 });
    await agents.getByText('claude').first().waitFor({ timeout: 5000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    // the drawer took the keyboard
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Close/);
    await page.keyboard.press('Escape');
    await agents.waitFor({ state: 'hidden', timeout: 5000 });
  });
});
