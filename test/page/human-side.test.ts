import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page as Tab } from 'playwright-core';
import { startBridge, tempDir } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPage, ensurePageAgentBuilt } from './harness.js';
import { openReactApp, startReactApp } from './vite-app.js';

beforeAll(() => ensurePageAgentBuilt());

async function centreOf(tab: Tab, selector: string): Promise<{ x: number; y: number }> {
  const box = await tab.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} has no box`);
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The picker's own UI lives in the <aiti-overlay> shadow root (Playwright's CSS pierces open shadow roots). */
const overlay = (tab: Tab, part: string) => tab.locator(`aiti-overlay .${part}`);

describe("the human's side of the page", () => {
  it('user_pick_element: hover highlights with an inspector label, a real click picks, with the source line', async () => {
    const { bridge, app, tab } = await openReactApp();
    await tab.waitForSelector('h1');
    const agent = await connectAgent(bridge.url);

    const asked = callTool(agent, 'user_pick_element', { prompt: 'Which button is broken?' });
    await overlay(tab, 'banner').waitFor();
    expect(await overlay(tab, 'banner').textContent()).toContain('Which button is broken?');

    const add = await centreOf(tab, 'text=Add task');
    await tab.mouse.move(add.x - 40, add.y - 40);
    await tab.mouse.move(add.x, add.y, { steps: 4 });
    await waitFor(async () => (await overlay(tab, 'inspector').textContent())?.includes('button "Add task"') ?? false);
    const highlight = await overlay(tab, 'highlight').boundingBox();
    const button = await tab.locator('main button').first().boundingBox();
    expect(Math.round(highlight?.width ?? 0)).toBe(Math.round(button?.width ?? -1));

    await tab.fill('input[placeholder="New task"]', 'not added'); // the pick must not reach the app
    await tab.mouse.click(add.x, add.y);
    const outcome = structured(await asked);
    expect(outcome.status).toBe('answered');
    const value = outcome.value as { tag: string; name: string; ref: string; source?: { file: string; line: number } };
    expect(value).toMatchObject({ tag: 'button', name: 'Add task', ref: expect.stringMatching(/^e\d+$/) });
    expect(value.source?.file).toBe(join(app.root, 'src/App.tsx'));
    expect(value.source?.line).toBe(34);
    expect(await tab.locator('li').allTextContents()).toEqual(['Water the plants']);
    expect(await overlay(tab, 'banner').count()).toBe(0);
  });

  it('Esc closes the picker and the ask ends as rejected', async () => {
    const { bridge, tab } = await openReactApp();
    const agent = await connectAgent(bridge.url);
    const asked = callTool(agent, 'user_pick_element', { prompt: 'Pick something' });
    await overlay(tab, 'banner').waitFor();
    await tab.keyboard.press('Escape');
    expect(structured(await asked).status).toBe('rejected');
  });

  it('a pick rejected in the window takes the picker off the page', async () => {
    const { bridge, tab } = await openReactApp();
    const agent = await connectAgent(bridge.url);
    const asked = callTool(agent, 'user_pick_element', { prompt: 'Pick something' });
    await overlay(tab, 'banner').waitFor();
    const [open] = bridge.context.hub.snapshot().asks;
    const res = await fetch(`${bridge.url}/bridge/answer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bridge.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ askId: open?.askId, action: 'reject', reason: 'not_now' }),
    });
    expect(res.status).toBe(200);
    expect(structured(await asked).status).toBe('rejected');
    await overlay(tab, 'banner').waitFor({ state: 'detached' });
    expect(await tab.evaluate(() => document.documentElement.style.cursor)).not.toBe('crosshair');
  });

  it('Alt+click opens the source line in the editor command, run without a shell', async () => {
    const dir = tempDir();
    const record = join(dir, 'opened.json');
    const editor = join(dir, 'editor.cjs');
    writeFileSync(
      editor,
      `require('fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(process.argv.slice(2)))`,
    );
    const { app, tab } = await openReactApp({
      openCmd: `"${process.execPath}" "${editor}" --goto {file}:{line}:{column}`,
    });
    await tab.waitForSelector('h1');

    const add = await centreOf(tab, 'text=Add task');
    await tab.fill('input[placeholder="New task"]', 'must not be added');
    await tab.keyboard.down('Alt');
    await tab.mouse.click(add.x, add.y);
    await tab.keyboard.up('Alt');
    // the editor writes its file after creating it: wait for the content, not just the file
    await waitFor(() => existsSync(record) && readFileSync(record, 'utf8').length > 0, 5000, 'the editor command ran');
    const [flag, location] = JSON.parse(readFileSync(record, 'utf8')) as string[];
    expect(flag).toBe('--goto');
    expect(location).toMatch(new RegExp(`^${join(app.root, 'src/App.tsx').replace(/[.]/g, '\\.')}:34:\\d+$`));
    expect(await tab.locator('li').allTextContents()).toEqual(['Water the plants']);
    expect(await tab.locator('aiti-overlay .toast').first().textContent()).toContain('Opening');
  });

  it('without data-source attributes, the source comes from the React 19 owner stack', async () => {
    const bridge = await startBridge();
    const app = await startReactApp(bridge.url, { sourceAttributes: false });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(app.url);
    await connectedPage(bridge, app.url);
    await tab.waitForSelector('h1');
    expect(await tab.locator('[data-source]').count()).toBe(0);
    const agent = await connectAgent(bridge.url);
    const asked = callTool(agent, 'user_pick_element', { prompt: 'Pick the add button' });
    await overlay(tab, 'banner').waitFor();
    const add = await centreOf(tab, 'main button');
    await tab.mouse.move(add.x, add.y);
    await tab.mouse.click(add.x, add.y);
    const value = structured(await asked).value as { source?: { file: string; line: number; via: string } };
    // the owner stack names a line of the served module; its source map leads back to the line written
    expect(value.source).toMatchObject({
      file: join(app.root, 'src/App.tsx'),
      line: 34,
      via: 'react-owner-stack+sourcemap',
    });
  });
});
