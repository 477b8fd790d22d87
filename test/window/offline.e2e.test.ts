import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage, settled } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('the window with no bridge', () => {
  it('a bridge killed mid-ask: no card can be answered, the window says why and keeps the draft; after the restart the card says the restart ended it', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const claude = await helloAgent(first.url, 'claude');
    // the call dies with the bridge
    void claude
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Publish the release?', timeoutMs: 120_000 } })
      .catch(() => undefined);
    const page = await openWindowPage(`${first.url}/aiti/ui/#token=${CHILD_TOKEN}`);
    const card = await settled(page.getByRole('article', { name: 'Confirm from claude' }));
    await card.getByLabel('note').fill('keep the seed data');

    await kill(first.child);
    const banner = page.getByRole('alert').filter({ hasText: 'cards cannot be answered' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('what you type on them is kept');
    // the card looks like what it is: nothing on it can be sent
    await card.and(page.locator('.is-offline')).waitFor();
    expect(await card.getByTestId('countdown').textContent()).toBe('no bridge: time left unknown');
    // a confirm answers with its own buttons (no second Answer button)
    for (const name of [/Yes/, /No/, 'Pause']) {
      expect(await card.getByRole('button', { name }).isDisabled()).toBe(true);
    }
    await card.getByLabel('note').press('Enter');
    await card.getByRole('alert').filter({ hasText: 'no connection to the bridge' }).waitFor();
    expect(await page.getByText('Failed to fetch').count()).toBe(0);

    const port = new URL(first.url).port;
    await spawnBridge(dataDir, { port: Number(port) });
    await page.locator('.connection.conn-live').waitFor({ timeout: 20_000 });
    expect(await banner.count()).toBe(0);
    // the restarted bridge ended the ask its call died with (on record, in the agent's inbox): the card says how,
    // and keeps what was not sent
    const ended = page.locator('.card.ended', { hasText: 'Publish the release?' });
    await expect.poll(() => ended.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('cancelled');
    expect(await ended.textContent()).toContain('the bridge restarted');
    expect(await ended.locator('.unsent-text').textContent()).toBe('note: keep the seed data');
  }, 90_000);

  it('an ask answered elsewhere while the window was cut off shows how it ended, from History', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Merge the branch?', async: true } });
    const page = await openWindowPage(bridge.uiUrl);
    const card = page.getByRole('article', { name: 'Confirm from claude' });
    await card.waitFor();
    const askId = await card.getAttribute('data-ask-id');

    // the window's stream is cut and stays cut while another window answers
    await page.route('**/bridge/sse?role=ai*', (route) => route.abort());
    bridge.context.hub.close();
    await page.getByRole('alert').filter({ hasText: 'cards cannot be answered' }).waitFor();
    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId, action: 'answer', value: false },
    });
    expect(answered.status).toBe(200);
    await page.unroute('**/bridge/sse?role=ai*');

    const ended = page.locator('.card.ended', { hasText: 'Merge the branch?' });
    await ended.getByText('Answered in another window').waitFor({ timeout: 20_000 });
    expect(await ended.textContent()).toContain('“No”');
  });

  it('a history fetch that finds no bridge says nothing in English; one the bridge refuses is said in the human’s language', async () => {
    const bridge = await startBridge();
    const page = await openWindowPage(bridge.uiUrl, { locale: 'zh-TW' });
    // the bridge went down between the stream's connection and the history fetch: the fetch dies on the way
    let aborted = false;
    await page.route(/\/bridge\/messages(\?|$)/, async (route) => {
      await route.abort();
      aborted = true;
    });
    await page.reload();
    await page.locator('.connection.conn-live').waitFor();
    await expect.poll(() => aborted).toBe(true);
    // two frames: the rejection has been handled and drawn
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.locator('.problem').count()).toBe(0);

    await page.unroute(/\/bridge\/messages(\?|$)/);
    await page.route(/\/bridge\/messages(\?|$)/, (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'disk full' }) }),
    );
    await page.reload();
    const problem = page.locator('.problem');
    await problem.waitFor();
    expect(await problem.textContent()).toBe(
      '無法載入歷史記錄：橋接服務拒絕了此操作（HTTP 503）。橋接服務的原話：disk full',
    );
    expect(await page.getByText('Failed to fetch').count()).toBe(0);
  });
});
