import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { AskOutcome } from '../../bridge/protocol/index.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';

export interface WindowOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
  /** the browser's language (Chromium's --lang and the context's locale) */
  locale?: string;
}

/** The window in a real headless Chromium, connected to the bridge, with no page error or console error. */
export async function openWindowPage(uiUrl: string, options: WindowOptions & { init?: string } = {}): Promise<Page> {
  const locale = options.locale ?? 'en-US';
  const browser = await launchBrowser({ locale });
  const page = await browser.newPage();
  if (options.init) await page.addInitScript(options.init);
  await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light' });
  await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 900 });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto(uiUrl);
  await page.locator('.connection.conn-live').waitFor();
  expect(problems).toEqual([]);
  return page;
}

/** An MCP agent (the official SDK client) that said hello under `agentId`. */
export async function helloAgent(url: string, agentId: string, hello: Record<string, unknown> = {}): Promise<Client> {
  const client = await connectAgent(url, { clientName: agentId });
  const result = await client.callTool({ name: 'aiti_hello', arguments: { agentId, ...hello } });
  expect(result.isError).toBeFalsy();
  return client;
}

/** The outcome in a user_* tool result. */
export function outcomeOf(result: unknown): AskOutcome {
  return AskOutcome.parse((result as { structuredContent?: unknown }).structuredContent);
}

/** Waits until the card takes keys (it has been on screen for the settle time), as the card itself shows. */
export async function settled(card: Locator): Promise<Locator> {
  await card.and(card.page().locator('[data-keys="ready"]')).waitFor();
  return card;
}
