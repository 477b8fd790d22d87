import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { AskUpdate } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { windowClient as openStream } from '../helpers/window.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage, outcomeOf, settled } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

const numbered = (count: number) => Array.from({ length: count }, (_, i) => `option ${i + 1}`);

/** A user_choose of `count` numbered options, its card read (settled) and clicked, and the agent's call. */
async function choiceCard(count: number, multiple = false) {
  const bridge = await startBridge();
  const claude = await helloAgent(bridge.url, 'claude');
  const page = await openWindowPage(bridge.uiUrl);
  const call = claude.callTool({
    name: 'user_choose',
    arguments: { prompt: 'Which one?', choices: numbered(count), multiple, timeoutMs: 60_000 },
  });
  const card = await settled(page.getByRole('article', { name: 'Choose from claude' }));
  await card.click({ position: { x: 5, y: 5 } });
  return { page, card, call };
}

describe('numbers past 9, typed as a hurried person types them', () => {
  it('1, 0, Enter on a 12-choice card sends choice 10, and the card shows the 1 while it waits', async () => {
    const { page, card, call } = await choiceCard(12);
    await page.keyboard.press('1');
    await card.locator('.typed-number').filter({ hasText: 'Choice 1…' }).waitFor();
    await page.keyboard.press('0');
    await page.keyboard.press('Enter');
    expect(outcomeOf(await call)).toMatchObject({ status: 'answered', value: 'option 10' });
  });

  it('15, 20, 7 in a 20-choice multi-select selects exactly those three', async () => {
    const { page, card, call } = await choiceCard(20, true);
    await page.keyboard.type('15207');
    const pressed = card.getByRole('button', { pressed: true });
    await expect.poll(() => pressed.allTextContents()).toEqual(['7☑option 7', '15☑option 15', '20☑option 20']);
    await page.keyboard.press('Enter');
    expect(outcomeOf(await call)).toMatchObject({ value: ['option 7', 'option 15', 'option 20'] });
  });

  it('a short pause completes a number: 1, a pause, Enter sends choice 1 of 12', async () => {
    const { page, card, call } = await choiceCard(12);
    await page.keyboard.press('1');
    // the pause is over when the card stops showing the number and marks the choice
    await card.getByRole('button', { name: /option 1$/, pressed: true }).waitFor();
    expect(await card.locator('.typed-number').count()).toBe(0);
    await page.keyboard.press('Enter');
    expect(outcomeOf(await call)).toMatchObject({ value: 'option 1' });
  });
});

describe('a reason typed after Esc', () => {
  it('Esc, a reason typed at speed, Enter: a rejection with that reason, never paused, never "yes"', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    const updates = await openStream(bridge);
    const call = claude.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Publish the release now?', timeoutMs: 60_000 },
    });
    const card = await settled(page.getByRole('article', { name: 'Confirm from claude' }));
    await card.click({ position: { x: 5, y: 5 } });
    const reason = 'Not before the changelog is reviewed: ping Yan and Nora, step 2 of 3, then publish';
    await page.keyboard.press('Escape');
    await page.keyboard.type(reason);
    expect(await card.getByLabel('reason').inputValue()).toBe(reason);
    await page.keyboard.press('Enter');
    const result = outcomeOf(await call);
    expect(result).toMatchObject({ status: 'rejected', reason: 'other', text: reason });
    expect(result.value).toBeUndefined();
    const paused = updates.stream.events
      .filter((e) => e.event === 'ask_update')
      .map((e) => e.data as AskUpdate)
      .filter((u) => u.paused);
    expect(paused).toEqual([]);
  });
});

describe('keys act only on what the human can see', () => {
  /** Enough history below the cards that the list scrolls them out of view. */
  async function longHistory(bridge: Bridge, agentId: string): Promise<void> {
    for (let i = 1; i <= 40; i++) {
      const res = await http(`${bridge.url}/bridge/push`, {
        token: bridge.token,
        body: { to: agentId, text: `#${i}` },
      });
      expect(res.status).toBe(200);
    }
  }

  /** The human scrolls the list with the wheel (the focus stays where it was) until `card` is out of view. */
  async function scrollAway(page: Page, card: Locator): Promise<void> {
    await page.locator('.history').hover();
    await page.mouse.wheel(0, 10_000);
    const scroller = page.locator('.main-scroll');
    await expect
      .poll(async () => {
        const top = await scroller.evaluate((el) => el.getBoundingClientRect().top);
        return card.evaluate((el, t) => el.getBoundingClientRect().bottom < t, top);
      })
      .toBe(true);
  }

  it('Enter on the active card scrolled out of view brings it back and answers nothing; the next Enter answers', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    await longHistory(bridge, 'claude');
    const page = await openWindowPage(bridge.uiUrl, { height: 700 });
    await page.getByText('#40', { exact: true }).waitFor();
    let answered = false;
    const call = claude
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Drop the cache table?', timeoutMs: 60_000 } })
      .finally(() => (answered = true));
    const card = await settled(page.getByRole('article', { name: 'Confirm from claude' }));
    await card.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('y');
    await card.getByRole('button', { name: /Yes/, pressed: true }).waitFor();
    await scrollAway(page, card);
    await page.keyboard.press('Enter');
    await card.getByRole('alert').filter({ hasText: 'out of view' }).waitFor();
    await expect.poll(() => card.evaluate((el) => el.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
    expect(answered).toBe(false);
    await page.keyboard.press('Enter');
    expect(outcomeOf(await call)).toMatchObject({ status: 'answered', value: true });
  });

  it('Esc on a card scrolled out of view opens nothing', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    await longHistory(bridge, 'claude');
    const page = await openWindowPage(bridge.uiUrl, { height: 700 });
    await page.getByText('#40', { exact: true }).waitFor();
    void claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?', timeoutMs: 60_000, async: true } });
    const card = await settled(page.getByRole('article', { name: 'Confirm from claude' }));
    await card.click({ position: { x: 5, y: 5 } });
    await scrollAway(page, card);
    await page.keyboard.press('Escape');
    await card.getByRole('alert').filter({ hasText: 'out of view' }).waitFor();
    expect(await card.getByRole('group', { name: 'reject' }).count()).toBe(0);
  });

  it('with the reject panel open, y does not pick Yes behind it: Back shows nothing picked', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    void claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Publish?', timeoutMs: 60_000, async: true } });
    const card = await settled(page.getByRole('article', { name: 'Confirm from claude' }));
    await card.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Escape');
    // the human clicks the card's edge (the focus leaves the reason box) and types y, then n
    await card.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('y');
    await page.keyboard.press('n');
    await page.keyboard.press('Escape');
    await card.getByRole('button', { name: /Yes/ }).waitFor();
    expect(await card.getByRole('button', { pressed: true }).count()).toBe(0);
  });

  it('a number hidden by the filter is not picked, and the card says why', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    void claude.callTool({
      name: 'user_choose',
      arguments: { prompt: 'Which?', choices: numbered(20), timeoutMs: 60_000, async: true },
    });
    const card = await settled(page.getByRole('article', { name: 'Choose from claude' }));
    await card.getByRole('searchbox', { name: 'filter choices' }).fill('option 1');
    await card.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('7');
    await card.getByRole('alert').filter({ hasText: 'Choice 7 is hidden by the filter' }).waitFor();
    // with the filter cleared, nothing was picked behind it
    await card.getByRole('searchbox', { name: 'filter choices' }).fill('');
    await card.getByRole('button', { name: /option 20$/ }).waitFor();
    expect(await card.getByRole('button', { pressed: true }).count()).toBe(0);
  });
});
