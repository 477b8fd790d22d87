import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('the list stays still under the hand', () => {
  it('a pointer resting on a card stays on it while two cards above end and their time is up', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const ask = async (prompt: string) => {
      const result = await claude.callTool({ name: 'user_confirm', arguments: { prompt, async: true } });
      return (result.structuredContent as { askId: string }).askId;
    };
    const first = await ask('Rename the branch?');
    const second = await ask('Bump the version?');
    await ask('publish the docs?');
    const page = await openWindowPage(bridge.uiUrl, { height: 900 });
    const publish = page.getByRole('article', { name: 'Confirm from claude' }).filter({ hasText: 'publish the docs?' });
    const yes = publish.getByRole('button', { name: 'Yes' });
    await yes.waitFor();
    const box = await yes.boundingBox();
    if (!box) throw new Error('the Yes button has no box');
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    /** the card and option under the resting pointer */
    const under = () =>
      page.evaluate(
        ([px, py]) => {
          const hit = document.elementFromPoint(px ?? 0, py ?? 0);
          const card = hit?.closest<HTMLElement>('.card');
          return `${card?.classList.contains('ended') ? 'ended ' : ''}${card?.innerText.includes('publish the docs?') ? 'publish' : 'other'}: ${hit?.closest('button')?.querySelector('.option-label')?.textContent ?? 'none'}`;
        },
        [x, y],
      );
    expect(await under()).toBe('publish: Yes');

    // the two cards above end in another window (the phone), and their moment on screen runs out
    for (const askId of [first, second]) {
      const answered = await http(`${bridge.url}/bridge/answer`, {
        token: bridge.token,
        body: { askId, action: 'answer', value: true },
      });
      expect(answered.status).toBe(200);
    }
    await page.locator('.card.ended[data-waiting]').nth(1).waitFor({ timeout: 15_000 });
    expect(await under()).toBe('publish: Yes');
    expect((await yes.boundingBox())?.y).toBe(box.y);
    expect(await publish.innerText()).toContain('publish the docs?');

    // the pointer leaves the list: the ended cards go, and the card moves up; a click on it right after it moved
    // does nothing: it is held, and the card says why
    await page.mouse.move(5, 5);
    const moved = await page.waitForFunction(
      () => {
        if (document.querySelector('.card.ended')) return undefined;
        const yes = Array.from(document.querySelectorAll('.card .option')).find((b) => b.textContent?.endsWith('Yes'));
        const r = yes?.getBoundingClientRect();
        return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : undefined;
      },
      undefined,
      { polling: 'raf' },
    );
    const there = (await moved.jsonValue()) ?? { x: 0, y: 0 };
    await page.mouse.click(there.x, there.y);
    expect(there.y).toBeLessThan(y);
    await publish.getByRole('alert').filter({ hasText: 'just moved' }).waitFor({ timeout: 10_000 });
    const open = await http(`${bridge.url}/bridge/messages?limit=100`, { token: bridge.token });
    expect(JSON.stringify(open.body)).not.toContain('publish the docs?');
    // a moment later the same click answers
    await expect
      .poll(
        async () => {
          if (await yes.isVisible()) await yes.click({ timeout: 1000 }).catch(() => undefined);
          return page.locator('.card.ended[data-outcome="answered"]').count();
        },
        { timeout: 10_000 },
      )
      .toBe(1);
  }, 60_000);

  it('a button scrolled into view and clicked in one go (a screen reader, a script) answers: a scroll is no move', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    for (const prompt of ['Rename the branch?', 'Bump the version?', 'Tag the release?', 'Close the milestone?'])
      await claude.callTool({ name: 'user_confirm', arguments: { prompt, async: true } });
    await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'publish the docs?', async: true } });
    const page = await openWindowPage(bridge.uiUrl, { height: 400 });
    const publish = page.locator('.card:not(.ended)').filter({ hasText: 'publish the docs?' });
    await publish.waitFor();
    expect(await publish.evaluate((card) => card.getBoundingClientRect().top > window.innerHeight)).toBe(true);
    const answered = page.locator('.card.ended[data-outcome="answered"]').filter({ hasText: 'publish the docs?' });
    /** from the top of the list, once the page has drawn it there: Yes scrolled into view and clicked at once */
    const scrollAndClick = () =>
      page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            // found here, not by a locator that would wait for it: once answered, the open card is gone
            const card = Array.from(document.querySelectorAll('.card:not(.ended)')).find((c) =>
              c.textContent?.includes('publish the docs?'),
            );
            if (!card) return resolve();
            card.closest('.main-scroll')?.scrollTo(0, 0);
            window.scrollTo(0, 0);
            requestAnimationFrame(() =>
              requestAnimationFrame(() => {
                const yes = Array.from(card.querySelectorAll('button')).find((b) => b.textContent?.endsWith('Yes'));
                yes?.scrollIntoView({ block: 'center' });
                yes?.click();
                resolve();
              }),
            );
          }),
      );
    // a card that really moved while the page laid itself out holds a click for a second: then the next one counts
    await expect
      .poll(
        async () => {
          if ((await answered.count()) === 0) await scrollAndClick().catch(() => undefined);
          return answered.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
  }, 60_000);

  it('a card being typed in keeps its place while a card above it ends', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const above = await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?', async: true } });
    await claude.callTool({ name: 'user_input', arguments: { prompt: 'Branch name?', async: true } });
    const page = await openWindowPage(bridge.uiUrl, { height: 900 });
    const field = page.getByRole('textbox', { name: 'answer' });
    await field.click();
    await page.mouse.move(5, 5);
    await page.keyboard.type('feat/');
    const before = await field.boundingBox();
    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: (above.structuredContent as { askId: string }).askId, action: 'answer', value: false },
    });
    expect(answered.status).toBe(200);
    await page.locator('.card.ended[data-waiting]').waitFor({ timeout: 15_000 });
    expect((await field.boundingBox())?.y).toBe(before?.y);
    await page.keyboard.type('still');
    expect(await field.inputValue()).toBe('feat/still');
  }, 60_000);
});
