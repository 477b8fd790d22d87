import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from './build-window.js';
import { openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

async function agent(url: string, agentId: string): Promise<Client> {
  const client = await connectAgent(url, { clientName: agentId });
  await client.callTool({ name: 'aiti_hello', arguments: { agentId } });
  return client;
}

const outcome = (result: unknown) => AskOutcome.parse((result as { structuredContent?: unknown }).structuredContent);

describe('the Enter race', () => {
  it('a card that arrives just before Enter (still settling) is not answered: Enter goes to the card the human was on', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const cursor = await agent(bridge.url, 'cursor');
    const page = await openWindowPage(bridge.uiUrl);

    const confirm = claude.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Delete the staging bucket?', timeoutMs: 60_000 },
    });
    const confirmCard = page.getByRole('article', { name: 'Confirm from claude' });
    // the human reads it: the card shows keys count on it once it has been on screen a moment
    await confirmCard.and(page.locator('[data-keys="ready"]')).waitFor();
    await page.locator('body').focus();
    await page.keyboard.press('1'); // "Yes" on the card the human read
    await confirmCard.and(page.locator('.is-active')).waitFor();

    let inputSettled = false;
    const input = cursor
      .callTool({ name: 'user_input', arguments: { prompt: 'Name of the new table?', timeoutMs: 60_000 } })
      .finally(() => (inputSettled = true));
    const inputCard = page.getByRole('article', { name: 'Input from cursor' });
    await inputCard.waitFor();
    expect(await inputCard.getAttribute('data-keys'), 'the new card arrived moments before Enter').toBe('settling');
    await page.keyboard.press('Enter');

    // Enter answered the card the human was on, with what they picked there
    expect(outcome(await confirm)).toMatchObject({ status: 'answered', value: true });
    // the new card is still open, unanswered, and did not become active by itself: not when the answered card
    // turned into its ending, nor when the new one settled
    await confirmCard.and(page.locator('.ended')).waitFor();
    await inputCard.and(page.locator('[data-keys="ready"]')).waitFor();
    expect(inputSettled).toBe(false);
    expect(bridge.context.asks.views().map((a) => a.kind)).toEqual(['user_input']);
    expect(await inputCard.getAttribute('aria-current')).toBeNull();
    await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: bridge.context.asks.views()[0]?.askId, action: 'reject', reason: 'not_now' },
    });
    expect(outcome(await input).status).toBe('rejected');
  });

  it('a new card never moves the card the human is on', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    void claude.callTool({ name: 'user_confirm', arguments: { prompt: 'First?', timeoutMs: 60_000, async: true } });
    const first = page.getByRole('article', { name: 'Confirm from claude' });
    await first.click({ position: { x: 5, y: 5 } });
    const before = await first.boundingBox();
    await claude.callTool({ name: 'user_input', arguments: { prompt: 'Second?', timeoutMs: 60_000, async: true } });
    await page.getByRole('article', { name: 'Input from claude' }).waitFor();
    expect(await first.boundingBox()).toEqual(before);
    expect(await first.getAttribute('aria-current')).toBe('true');
  });

  it('Enter never approves a page command, even on the active card after a long read', async () => {
    const bridge = await startBridge();
    const page = await openWindowPage(bridge.uiUrl);
    const ask = bridge.context.asks.create({
      kind: 'page_command',
      agentId: 'claude',
      prompt: 'claude wants to run a script in the page on http://localhost:5173/',
      command: { cmd: 'Runtime.evaluate', args: { expression: 'localStorage.clear()' } },
    });
    const card = page.getByRole('article', { name: 'Page command from claude' });
    // a long read: the card has been on screen past the moment after which keys count
    await card.and(page.locator('[data-keys="ready"]')).waitFor();
    await card.click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('1');
    await page.keyboard.press('Enter');
    await card.getByRole('alert').filter({ hasText: 'Choose with a button' }).waitFor();
    expect(ask.ended).toBeUndefined();
    await card.getByRole('button', { name: 'Deny' }).click();
    expect((await ask.outcome).value).toBe(false);
  });
});

describe('every ask on record', () => {
  it('shows each ended card with its outcome, then History has every one of them after a reload', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    const card = (prompt: string) => page.locator('article.card', { hasText: prompt });

    // answered here
    const here = claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Answered here?', timeoutMs: 60_000 } });
    await card('Answered here?').getByRole('button', { name: /Yes/ }).click();
    expect(outcome(await here).status).toBe('answered');
    await card('Answered here?')
      .locator('.outcome-chip', { hasText: /^Answered$/ })
      .waitFor();

    // answered in another window (a draft typed here is shown, not dropped)
    const elsewhere = claude.callTool({ name: 'user_input', arguments: { prompt: 'Elsewhere?', timeoutMs: 60_000 } });
    await card('Elsewhere?').getByLabel('answer').fill('my half-written answer');
    const askId = bridge.context.asks.views()[0]?.askId;
    await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId, action: 'answer', value: 'from the other window' },
    });
    expect(outcome(await elsewhere).value).toBe('from the other window');
    await card('Elsewhere?').locator('.outcome-chip', { hasText: 'Answered in another window' }).waitFor();
    expect(await card('Elsewhere?').locator('.unsent-text').textContent()).toContain('my half-written answer');

    // timed out
    const late = claude.callTool({ name: 'user_confirm', arguments: { prompt: 'Too late?', timeoutMs: 1500 } });
    expect(outcome(await late).status).toBe('timed_out');
    await card('Too late?').locator('.outcome-chip', { hasText: 'Timed out' }).waitFor();

    // withdrawn by the agent
    const abort = new AbortController();
    const withdrawn = claude
      .callTool({ name: 'user_confirm', arguments: { prompt: 'Withdrawn?', timeoutMs: 60_000 } }, undefined, {
        signal: abort.signal,
      })
      .catch(() => undefined);
    await card('Withdrawn?').waitFor();
    abort.abort();
    await withdrawn;
    await card('Withdrawn?').locator('.outcome-chip', { hasText: 'Withdrawn by the agent' }).waitFor();

    // answered away by the bridge, with no card at all
    await page.getByRole('button', { name: 'Here', exact: true }).click();
    await waitFor(() => bridge.context.asks.away, 5000, 'the human to be marked away');
    const away = await claude.callTool({ name: 'user_confirm', arguments: { prompt: 'While away?' } });
    expect(outcome(away).status).toBe('away');

    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    const history = page.getByRole('region', { name: 'inbox history' });
    const row = (prompt: string) => history.locator('.ask-record', { hasText: prompt });
    await row('While away?').waitFor();
    const seen = async (prompt: string) => ({
      outcome: await row(prompt).getAttribute('data-outcome'),
      by: await row(prompt).getAttribute('data-decided-by'),
      chip: await row(prompt).locator('.outcome-chip').textContent(),
    });
    expect(await seen('Answered here?')).toEqual({ outcome: 'answered', by: 'human', chip: 'Answered' });
    expect(await seen('Elsewhere?')).toEqual({ outcome: 'answered', by: 'human', chip: 'Answered' });
    expect(await seen('Too late?')).toEqual({ outcome: 'timed_out', by: 'bridge', chip: 'Timed out' });
    expect(await seen('Withdrawn?')).toEqual({ outcome: 'cancelled', by: 'agent', chip: 'Withdrawn by the agent' });
    expect(await seen('While away?')).toEqual({ outcome: 'away', by: 'bridge', chip: 'Answered away' });
    expect(await row('While away?').textContent()).toContain('no card was shown');
  });
});
