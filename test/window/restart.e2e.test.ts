import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ensureWindowBuilt } from './build-window.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('the window across a SIGKILL of its bridge', () => {
  it('a card whose ask the restart ended stays and says how it ended; an async card comes back open', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'claude' });
    const waiting = agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Drop the old table?' } }, undefined, {
      timeout: 60_000,
    });
    waiting.catch(() => undefined);
    await agent.callTool({ name: 'user_input', arguments: { prompt: 'Name of the new one?', async: true } });
    const page = await (await launchBrowser()).newPage();
    await page.goto(`${first.url}/aiti/ui/#token=${encodeURIComponent(CHILD_TOKEN)}`);
    const sync = page.getByRole('article', { name: /Confirm from claude/ });
    const async = page.getByRole('article', { name: /Input from claude/ });
    await sync.waitFor();
    await async.waitFor();

    await kill(first.child);
    await spawnBridge(dataDir, { port: first.port });
    // the window reconnects by itself; the sync card tells how it ended instead of vanishing
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 30_000 });
    await expect
      .poll(async () => page.locator('article.card.ended').first().getAttribute('data-outcome'), { timeout: 15_000 })
      .toBe('cancelled');
    const ended = (await page.locator('article.card.ended').first().textContent()) ?? '';
    expect(ended).toContain('Cancelled by the bridge');
    expect(ended).toContain('the bridge restarted');
    // the async question is still waiting for the human
    expect(await async.count()).toBe(1);
    expect(await async.getAttribute('class')).not.toMatch(/ended/);
  }, 90_000);
});
