import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { AskOutcome, InboxResult } from '../../bridge/protocol/index.js';
import { http, startBridge, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { ensureWindowBuilt } from './build-window.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** A 1×1 PNG, as a screenshot would arrive from the clipboard. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Pastes (or drops) the PNG as a file on the element, as the browser does with a screenshot from the clipboard. */
async function pasteImage(page: Page, selector: string, how: 'paste' | 'drop'): Promise<void> {
  await page.evaluate(
    ({ selector, png, how }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'screenshot.png', { type: 'image/png' }));
      const target = document.querySelector(selector);
      if (!target) throw new Error(`no ${selector}`);
      const event =
        how === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
          : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true });
      target.dispatchEvent(event);
    },
    { selector, png: PNG, how },
  );
}

function journalText(dataDir: string): string {
  const root = join(dataDir, 'aiti-bridge', 'sessions');
  return readdirSync(root)
    .flatMap((agent) => readdirSync(join(root, agent)).map((f) => readFileSync(join(root, agent, f), 'utf8')))
    .join('\n');
}

describe('images in answers and pushes', () => {
  it('an image pasted into an answer reaches the agent as MCP image content and is kept in the data dir, not the journal', async () => {
    const dataDir = tempDir();
    const bridge = await startBridge({ dataDir });
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(bridge.uiUrl);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();

    const call = claude.callTool({
      name: 'user_input',
      arguments: { prompt: 'What does the broken layout look like?', timeoutMs: 60_000 },
    }) as Promise<CallToolResult>;
    const card = page.getByRole('article', { name: 'Input from claude' });
    await card.getByLabel('answer').fill('the sidebar overlaps the table');
    await pasteImage(page, '[aria-label="Input from claude"] textarea', 'paste');
    await card.getByRole('list', { name: 'attached images' }).getByRole('img', { name: 'screenshot.png' }).waitFor();
    await card.getByRole('button', { name: 'Answer' }).click();

    const result = await call;
    const outcome = AskOutcome.parse(result.structuredContent);
    expect(outcome).toMatchObject({ status: 'answered', value: 'the sidebar overlaps the table' });
    expect(result.content).toContainEqual({ type: 'image', mimeType: 'image/png', data: PNG });
    const [ref] = outcome.images ?? [];
    expect(ref).toMatchObject({ mimeType: 'image/png', bytes: Buffer.from(PNG, 'base64').length });
    const file = join(dataDir, 'aiti-bridge', 'images', ref?.id ?? 'none');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file).toString('base64')).toBe(PNG);
    // the journal keeps the reference, never the bytes
    await page.getByRole('region', { name: 'inbox history' }).locator('.ask-record').waitFor();
    expect(journalText(dataDir)).toContain(ref?.id);
    expect(journalText(dataDir)).not.toContain(PNG.slice(0, 40));
  });

  it('an image dropped on the composer reaches the agent through aiti_inbox as image content', async () => {
    const bridge = await startBridge();
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(bridge.uiUrl);
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor();
    await page.locator('.panel[aria-label="agents"] .row-title', { hasText: 'claude' }).waitFor();

    await pasteImage(page, 'form.composer', 'drop');
    await page.getByRole('form', { name: 'push a message' }).getByRole('img', { name: 'screenshot.png' }).waitFor();
    await page.getByLabel('message', { exact: true }).fill('This is what I see');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'delivery' }).waitFor();

    const inbox = (await claude.callTool({ name: 'aiti_inbox', arguments: {} })) as CallToolResult;
    const { messages } = InboxResult.parse(inbox.structuredContent);
    expect(messages[0]?.text).toBe('This is what I see');
    expect(messages[0]?.images?.[0]?.mimeType).toBe('image/png');
    expect(inbox.content).toContainEqual({ type: 'image', mimeType: 'image/png', data: PNG });
  });

  it('refuses bytes that are not the image type they claim, naming the image', async () => {
    const bridge = await startBridge();
    await connectAgent(bridge.url, { clientName: 'claude' });
    const res = await http(`${bridge.url}/bridge/push`, {
      token: bridge.token,
      body: {
        to: 'all',
        text: 'x',
        images: [{ mimeType: 'image/png', data: Buffer.from('#!/bin/sh').toString('base64') }],
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('image 1 is not a image/png');
  });
});
