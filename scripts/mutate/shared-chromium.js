// Global setup of `npm test` (vitest.config.ts) and of `npm run mutate`'s browser groups
// (scripts/mutate/vitest.config.js): one headless Chromium for the whole run. A test's launchBrowser() opens a fresh
// context of it instead of launching a browser (test/helpers/browser.ts), as isolated as a fresh profile and about
// 2 s cheaper on this machine; in the mutation run it is launched in the runner's own process, so it outlives the
// worker of each rerun.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/helpers/chromium.ts';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
