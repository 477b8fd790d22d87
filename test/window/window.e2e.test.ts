import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome, InboxResult } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from './build-window.js';

const screenshots = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

beforeAll(async () => {
  await ensureWindowBuilt();
  mkdirSync(screenshots, { recursive: true });
}, 150_000);

async function agent(url: string, agentId: string, hello: Record<string, unknown> = {}): Promise<Client> {
  const client = await connectAgent(url, { clientName: agentId });
  const result = await client.callTool({ name: 'aiti_hello', arguments: { agentId, ...hello } });
  expect(result.isError).toBeFalsy();
  return client;
}

function outcome(result: unknown): AskOutcome {
  const structured = (result as { structuredContent?: unknown }).structuredContent;
  return AskOutcome.parse(structured);
}

async function openWindow(uiUrl: string, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const browser = await launchBrowser();
  const page = await browser.newPage();
  await page.emulateMedia({ colorScheme });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(uiUrl);
  await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  expect(problems).toEqual([]);
  return page;
}

describe('the window against a real bridge', () => {
  it('shows a user_choose card with its countdown; picking with the keyboard returns that choice to the agent', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindow(bridge.uiUrl);
    expect(page.url()).not.toContain('token=');

    const call = claude.callTool({
      name: 'user_choose',
      arguments: {
        prompt: 'Which date format for the invoice list?',
        choices: ['2026-11-30', '30/11/2026', 'Nov 30, 2026'],
        timeoutMs: 90_000,
      },
    });
    const card = page.getByRole('article', { name: 'Choose from claude' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Which date format for the invoice list?');
    const countdown = card.getByTestId('countdown');
    const first = await countdown.textContent();
    expect(first).toMatch(/^1:(2\d|30)$/);
    await waitFor(async () => (await countdown.textContent()) !== first, 5000, 'the countdown to move');

    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    const result = outcome(await call);
    expect(result).toMatchObject({ status: 'answered', value: 'Nov 30, 2026' });
    await card.waitFor({ state: 'detached' });
  });

  it('pauses the countdown on the server and resumes it', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindow(bridge.uiUrl);
    const call = claude.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Run the migration?', timeoutMs: 60_000 },
    });
    const card = page.getByRole('article', { name: 'Confirm from claude' });
    await card.getByRole('button', { name: 'Pause' }).click();
    await card
      .getByTestId('countdown')
      .filter({ hasText: /^paused/ })
      .waitFor();
    const ask = bridge.context.hub.snapshot().asks[0];
    expect(ask?.paused).toBe(true);
    await card.getByRole('button', { name: 'Resume' }).click();
    await card
      .getByTestId('countdown')
      .filter({ hasText: /^\d:\d\d$/ })
      .waitFor();
    await page.waitForTimeout(1000); // keys answer a card once it has been on screen a moment
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('4');
    await page.keyboard.press('Enter');
    expect(outcome(await call)).toMatchObject({ status: 'rejected', reason: 'stop_task' });
  });

  it('pushes from the composer (Ctrl+K) into the agent inbox and shows the channel used', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindow(bridge.uiUrl);
    await page.locator('.panel[aria-label="agents"] .row-title', { hasText: 'claude' }).waitFor();

    await page.keyboard.press('Control+k');
    await page.keyboard.type('Please use the design tokens from theme.ts');
    await page.keyboard.press('Enter');
    const delivery = page.getByRole('list', { name: 'delivery' });
    await delivery.getByText('claude').waitFor();
    expect(await delivery.textContent()).toMatch(/claude\s*(channel|sampling|inbox)/);

    const inbox = await claude.callTool({ name: 'aiti_inbox', arguments: {} });
    const { messages } = InboxResult.parse((inbox as { structuredContent?: unknown }).structuredContent);
    expect(messages.map((m) => m.text)).toContain('Please use the design tokens from theme.ts');
    // the history shows it, with its status moving on once the agent read it
    const row = page.locator('.message', { hasText: 'Please use the design tokens' });
    await row.locator('.status-chip', { hasText: 'delivered' }).waitFor();
  });

  it('keeps the token across a reload without showing it in the address bar', async () => {
    const bridge = await startBridge();
    const page = await openWindow(bridge.uiUrl);
    expect(page.url()).not.toContain(bridge.token);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  });
});

describe('screenshots', () => {
  const shots = [
    { name: 'light', scheme: 'light', width: 1280, height: 1040 },
    { name: 'dark', scheme: 'dark', width: 1280, height: 1040 },
    { name: 'narrow', scheme: 'light', width: 360, height: 900 },
  ] as const;
  for (const { name, scheme, width, height } of shots) {
    it(`of the window with open cards (${name}, ${width} px wide)`, async () => {
      const bridge = await startBridge();
      const invoices = await ScriptedPage.connect(bridge.url, {
        url: 'http://localhost:5173/invoices',
        frameworks: ['react', 'vite'],
        title: 'Invoices · Acme admin',
      });
      const billing = await ScriptedPage.connect(bridge.url, {
        url: 'http://localhost:3000/settings/billing',
        frameworks: ['vue'],
        title: 'Billing settings',
      });
      const claude = await agent(bridge.url, 'claude-code', { pageId: invoices.pageId, subEvents: ['page_error'] });
      const cursor = await agent(bridge.url, 'cursor', { pageId: billing.pageId });
      const page = await openWindow(bridge.uiUrl, scheme);
      await page.setViewportSize({ width, height });

      const error = {
        message: "TypeError: Cannot read properties of undefined (reading 'total')",
        kind: 'error',
        at: new Date().toISOString(),
      };
      const posted = await fetch(`${bridge.url}/bridge/event`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          pageId: invoices.pageId,
          type: 'page_error',
          payload: [error],
          secret: invoices.secret,
        }),
      });
      expect(posted.status).toBe(204);

      await page
        .getByPlaceholder(/Message every agent/)
        .fill('Heads up: the API moved to /v2, regenerate the client first');
      await page.keyboard.press('Enter');
      await page.getByRole('list', { name: 'delivery' }).waitFor();
      await claude.callTool({ name: 'aiti_inbox', arguments: {} });

      const calls = [
        claude.callTool({
          name: 'user_confirm',
          arguments: {
            prompt: 'Drop the legacy invoices table? 1,204 rows, all archived in S3.',
            timeoutMs: 300_000,
            async: true,
          },
        }),
        cursor.callTool({
          name: 'user_choose',
          arguments: {
            prompt: 'Which layout for the billing settings page?',
            choices: ['Two columns, summary on the right', 'Single column with sections', 'Tabs per plan'],
            timeoutMs: 120_000,
            async: true,
          },
        }),
        claude.callTool({
          name: 'user_input',
          arguments: {
            prompt: 'Name for the new feature branch?',
            defaultValue: 'feat/invoice-export',
            timeoutMs: 600_000,
            async: true,
          },
        }),
      ];
      await Promise.all(calls);
      await page.getByRole('article').nth(2).waitFor();
      await page.locator('.message.kind-page_error').waitFor(); // page events arrive batched, once a second
      await page.getByRole('article', { name: 'Choose from cursor' }).click({ position: { x: 5, y: 5 } });
      await page.waitForTimeout(1000); // a card takes keys once it has been on screen a moment
      await page.keyboard.press('1');
      await page.waitForTimeout(600);
      // nothing scrolls sideways, however narrow (README "The window": usable from 360 px)
      const wide = await page.evaluate((w) => {
        const out: string[] = [];
        for (const el of Array.from(document.querySelectorAll('body *'))) {
          const r = el.getBoundingClientRect();
          // the strip of open asks scrolls within itself, soonest first; the page never does
          const inStrip = el.closest('.open-strip ol') && el !== el.closest('.open-strip ol');
          if (r.right > w + 1 && getComputedStyle(el).position !== 'fixed' && !el.closest('.side-column') && !inStrip)
            out.push(`${el.tagName}.${el.className} ${Math.round(r.right)}`);
        }
        return out.slice(0, 8);
      }, width);
      expect(wide).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `${screenshots}window-${name}.png` });
    });
  }
});
