import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from '../window/build-window.js';
import { launchBrowserWithEvilSite, serveEvil } from './evil-site.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 180_000);

/** The window answers the human's asks: a website must not frame it to trick clicks (docs/SECURITY.md). */
describe('the window cannot be framed by a website', () => {
  it("a website's iframe of /aiti/ui/ shows nothing of the window", async () => {
    const bridge = await startBridge();
    const evil = await serveEvil({
      '/': `<!doctype html><title>Click the button</title><iframe src="${bridge.url}/aiti/ui/" width="800" height="600"></iframe>`,
    });
    const tab = await (await launchBrowserWithEvilSite()).newPage();
    // the same page opened directly renders the window: the framing is what is refused
    await tab.goto(`${bridge.url}/aiti/ui/`);
    await tab.waitForFunction('document.body.innerText.trim().length > 0', undefined, { timeout: 15_000 });
    const windowText =
      String(await tab.evaluate('document.body.innerText'))
        .trim()
        .split('\n')[0] ?? '';
    expect(windowText.length).toBeGreaterThan(0);

    await tab.goto(`${evil.evilUrl}/`);
    // Chromium replaces a frame refused by frame-ancestors with its own error page
    await waitFor(
      () => tab.frames().some((f) => f !== tab.mainFrame() && f.url().startsWith('chrome-error:')),
      15_000,
      'the framed window to be refused',
    );
    const child = tab.frames().find((f) => f !== tab.mainFrame());
    const text = child ? await child.evaluate('document.body ? document.body.innerText : ""').catch(() => '') : '';
    // Chromium replaces a frame refused by frame-ancestors with its own error page
    expect(child?.url()).toMatch(/^chrome-error:/);
    expect(text).not.toContain(windowText);
  });
});
