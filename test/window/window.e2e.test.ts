import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome, InboxResult } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from './build-window.js';
import { openWindowPage, settled } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

async function agent(url: string, agentId: string, hello: Record<string, unknown> = {}): Promise<Client> {
  const client = await connectAgent(url, { clientName: agentId });
  const result = await client.callTool({ name: 'aiti_hello', arguments: { agentId, ...hello } });
  expect(result.isError).toBeFalsy();
  return client;
}

function outcome(result: unknown): AskOutcome {
  const structured = (result as { structuredContent?: unknown }).structuredContent;
  return AskOutcome.parse(structured);
}

describe('the window against a real bridge', () => {
  it('shows a user_choose card with its countdown; picking with the keyboard returns that choice to the agent', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    expect(page.url()).not.toContain('token=');

    const call = claude.callTool({
      name: 'user_choose',
      arguments: {
        prompt: 'Which date format for the invoice list?',
        choices: ['2026-11-30', '30/11/2026', 'Nov 30, 2026'],
        timeoutMs: 90_000,
      },
    });
    const card = page.getByRole('article', { name: 'Choose from claude' });
    await card.waitFor();
    expect(await card.textContent()).toContain('Which date format for the invoice list?');
    const countdown = card.getByTestId('countdown');
    const first = await countdown.textContent();
    expect(first).toMatch(/^1:(2\d|30)$/);
    await waitFor(async () => (await countdown.textContent()) !== first, 5000, 'the countdown to move');

    // keys answer a card once it has been on screen a moment (the countdown may move sooner: its second was begun)
    await settled(card);
    await page.keyboard.press('3');
    await page.keyboard.press('Enter');
    const result = outcome(await call);
    expect(result).toMatchObject({ status: 'answered', value: 'Nov 30, 2026' });
    // the card turns into its ending (it lingers a few seconds, then goes to History)
    await page.locator('article.card.ended .outcome-chip').waitFor();
  });

  it('pauses the countdown on the server and resumes it', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    const call = claude.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Run the migration?', timeoutMs: 60_000 },
    });
    const card = page.getByRole('article', { name: 'Confirm from claude' });
    await card.getByRole('button', { name: 'Pause' }).click();
    await card
      .getByTestId('countdown')
      .filter({ hasText: /^paused/ })
      .waitFor();
    const ask = bridge.context.hub.snapshot().asks[0];
    expect(ask?.paused).toBe(true);
    await card.getByRole('button', { name: 'Resume' }).click();
    await card
      .getByTestId('countdown')
      .filter({ hasText: /^\d:\d\d$/ })
      .waitFor();
    // keys answer a card once it has been on screen a moment, which the card shows
    await card.and(page.locator('[data-keys="ready"]')).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('4');
    await page.keyboard.press('Enter');
    expect(outcome(await call)).toMatchObject({ status: 'rejected', reason: 'stop_task' });
  });

  it('pushes from the composer (Ctrl+K) into the agent inbox and shows the channel used', async () => {
    const bridge = await startBridge();
    const claude = await agent(bridge.url, 'claude');
    const page = await openWindowPage(bridge.uiUrl);
    await page.locator('.panel[aria-label="agents"] .row-title', { hasText: 'claude' }).waitFor();

    await page.keyboard.press('Control+k');
    await page.keyboard.type('Please use the design tokens from theme.ts');
    await page.keyboard.press('Enter');
    const delivery = page.getByRole('list', { name: 'delivery' });
    await delivery.getByText('claude').waitFor();
    expect(await delivery.textContent()).toMatch(/claude\s*(channel|sampling|inbox)/);

    const inbox = await claude.callTool({ name: 'aiti_inbox', arguments: {} });
    const { messages } = InboxResult.parse((inbox as { structuredContent?: unknown }).structuredContent);
    expect(messages.map((m) => m.text)).toContain('Please use the design tokens from theme.ts');
    // the history shows it, with its status moving on once the agent read it
    const row = page.locator('.message', { hasText: 'Please use the design tokens' });
    await row.locator('.status-chip', { hasText: 'handed out, not yet acknowledged' }).waitFor();
  });

  it('keeps the token across a reload without showing it in the address bar', async () => {
    const bridge = await startBridge();
    const page = await openWindowPage(bridge.uiUrl);
    expect(page.url()).not.toContain(bridge.token);
    await page.reload();
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
  });
});
