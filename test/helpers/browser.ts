import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { onCleanup } from './bridge.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';

export { CHROMIUM_ARGS, chromiumPath };

declare module 'vitest' {
  export interface ProvidedContext {
    /** a Chromium shared by the run's tests, when it has one (scripts/mutate/shared-chromium.js) */
    chromiumEndpoint: string | undefined;
  }
}

export interface TestBrowser {
  context: BrowserContext;
  /** a new tab in the shared context */
  newPage(): Promise<Page>;
}

/**
 * A real headless Chromium (CHROMIUM_PATH overrides /usr/bin/chromium) with a fresh profile, closed after the
 * current test. Each call gives its own browser, so tests do not share sessionStorage or permissions. In a run
 * that shares one Chromium (the mutation run), a call without launch flags gets a fresh context of it instead:
 * its own cookies, storage and permissions all the same.
 */
export async function launchBrowser(options: { args?: string[]; locale?: string } = {}): Promise<TestBrowser> {
  const shared = inject('chromiumEndpoint');
  if (shared && !options.args) return contextOf(shared, options.locale);
  const profile = mkdtempSync(join(tmpdir(), 'aiti-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
    viewport: { width: 1280, height: 800 },
    ...(options.locale ? { locale: options.locale } : {}),
  });
  onCleanup(async () => {
    await context.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  });
  await serveMutatedPageAgent(context);
  return {
    context,
    newPage: () => context.newPage(),
  };
}

async function contextOf(endpoint: string, locale: string | undefined): Promise<TestBrowser> {
  const browser = await chromium.connect(endpoint);
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...(locale ? { locale } : {}) });
  // closing a connected browser only disconnects from it
  onCleanup(() => browser.close().catch(() => undefined));
  await serveMutatedPageAgent(context);
  return { context, newPage: () => context.newPage() };
}

/**
 * In a mutation run of the page agent, the bundle that names this test runner's active mutant
 * (scripts/mutate/activate-mutant.js) is what the bridge's page.js answers with: one file on disk could name
 * only one mutant, and the group's test runners run side by side. Status and headers stay the bridge's own.
 */
async function serveMutatedPageAgent(context: BrowserContext): Promise<void> {
  const bundle = (globalThis as { __aitiPageBundle?: string }).__aitiPageBundle;
  if (bundle === undefined) return;
  await context.route(/\/aiti\/page\.js(\?.*)?$/, async (route) => {
    const response = await route.fetch();
    await route.fulfill(response.ok() ? { response, body: bundle } : { response });
  });
}
