import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { onCleanup } from './bridge.js';
import { CHROMIUM_ARGS, chromiumPath } from './chromium.js';

export { CHROMIUM_ARGS, chromiumPath };

export interface TestBrowser {
  context: BrowserContext;
  /** a new tab in the shared context */
  newPage(): Promise<Page>;
}

/**
 * A real headless Chromium (CHROMIUM_PATH overrides /usr/bin/chromium) with a fresh profile, closed after the
 * current test. Each call gives its own browser, so tests do not share sessionStorage or permissions.
 */
export async function launchBrowser(options: { args?: string[]; locale?: string } = {}): Promise<TestBrowser> {
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
  return {
    context,
    newPage: () => context.newPage(),
  };
}
