// Global setup of `npm run mutate` for a browser group (scripts/mutate/vitest.config.js): one headless Chromium
// for the whole Stryker run. Every mutant reruns the tests that reached it, and each of them launches a browser:
// launched once here, in the runner's own process (it outlives the worker of each rerun), a test's
// launchBrowser() opens a fresh context of it instead (test/helpers/browser.ts), as isolated as a fresh profile
// and about 2 s cheaper on this machine.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/helpers/chromium.ts';

/** @param {import('vitest/node').TestProject} project */
export default async function setup(project) {
  const server = await chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
