import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Download, type Page } from 'playwright-core';
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
 * A real headless Chromium (CHROMIUM_PATH overrides /usr/bin/chromium), closed after the current test. The run
 * shares one Chromium (vitest.config.ts globalSetup, scripts/mutate/shared-chromium.js): a call without launch
 * flags gets a fresh context of it — its own cookies, storage, permissions and locale, as isolated as a fresh
 * profile and about 2 s cheaper than launching one. A call with flags, or a run without the shared one (a file run
 * with another config), launches its own with a fresh profile.
 */
export async function launchBrowser(options: { args?: string[]; locale?: string } = {}): Promise<TestBrowser> {
  const shared = inject('chromiumEndpoint');
  if (shared && !options.args) return contextOf(shared, options.locale);
  const profile = mkdtempSync(join(tmpdir(), 'aiti-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    // the browser's own language as well as the context's locale, when the test names one
    args: [...CHROMIUM_ARGS, ...(options.locale ? [`--lang=${options.locale}`] : []), ...(options.args ?? [])],
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
  const context = await sharedContext(endpoint, {
    viewport: { width: 1280, height: 800 },
    ...(locale ? { locale } : {}),
  });
  onCleanup(() => context.close());
  await serveMutatedPageAgent(context);
  return { context, newPage: () => context.newPage() };
}

/**
 * A fresh context of the run's shared Chromium; closing it closes the context and disconnects (a connected
 * browser's close only disconnects from it, the shared one goes on).
 */
export async function sharedContext(
  endpoint: string,
  options: Parameters<Browser['newContext']>[0],
): Promise<BrowserContext> {
  const browser = await chromium.connect(endpoint);
  const context = await browser.newContext(options);
  const close = context.close.bind(context);
  context.close = async (closing) => {
    await close(closing).catch(() => undefined);
    await browser.close().catch(() => undefined);
  };
  return context;
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

/**
 * What a download holds, read through Playwright's stream: `download.path()` is not available in a context of the
 * shared (connected) Chromium, the stream works in both.
 */
export async function downloadText(download: Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
