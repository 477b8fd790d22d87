import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { ANSWER_BYTES, IMAGE_BYTES } from '../../bridge/mcp/tools/budget.js';
import { MAX_IMAGE_BYTES, type InboxResult, type Json, type LogEntry } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, openPage } from '../page/harness.js';

/**
 * Finding 6 of issue 37: answers without a size — five pushes of four 3 MB images made one 80 MiB aiti_inbox answer,
 * fifty made none at all; 60 messages of 99,000 characters one of 9.5 MiB; 100 long console lines a 3.8 MiB
 * page_logs answer. Every answer now keeps to its budget (bridge/mcp/tools/budget.ts), and says how to read on.
 */

/** What one answer weighs: its text, its structuredContent as JSON, its images as base64. */
function weigh(result: CallToolResult): { text: number; json: number; images: number } {
  let text = 0;
  let images = 0;
  for (const part of result.content) {
    if (part.type === 'text') text += Buffer.byteLength(part.text);
    if (part.type === 'image') images += part.data.length;
  }
  return { text, json: Buffer.byteLength(JSON.stringify(result.structuredContent ?? {})), images };
}

function withinBudget(result: CallToolResult): void {
  const weight = weigh(result);
  // the notice line the dispatcher adds to every answer is a line more than the tool's own text
  expect(weight.text).toBeLessThanOrEqual(ANSWER_BYTES + 1024);
  expect(weight.json).toBeLessThanOrEqual(ANSWER_BYTES);
  expect(weight.images).toBeLessThanOrEqual(IMAGE_BYTES);
}

/** A PNG of `bytes` bytes (its header is what the bridge checks). */
function png(bytes: number, seed: number): { mimeType: 'image/png'; data: string } {
  const data = Buffer.alloc(bytes, seed % 251);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return { mimeType: 'image/png', data: data.toString('base64') };
}

async function push(bridge: Bridge, body: Record<string, unknown>): Promise<void> {
  const res = await http(`${bridge.url}/bridge/push`, { token: bridge.token, body: { to: 'claude', ...body } });
  expect(res.status).toBe(200);
}

/** Reads the whole inbox page by page, checking every answer; the messages and images it got. */
async function readAll(agent: Client): Promise<{ texts: string[]; images: number; pages: number }> {
  const texts: string[] = [];
  let images = 0;
  let pages = 0;
  for (let after: string | undefined; ; pages++) {
    const result = await callTool(agent, 'aiti_inbox', after ? { after } : {});
    withinBudget(result);
    const inbox = result.structuredContent as InboxResult;
    texts.push(...inbox.messages.map((m) => m.text ?? ''));
    images += result.content.filter((c) => c.type === 'image').length;
    // an image that did not fit is asked for by the name the answer gave it
    for (const image of inbox.imagesWaiting ?? []) {
      const one = await callTool(agent, 'aiti_inbox', { image });
      withinBudget(one);
      images += one.content.filter((c) => c.type === 'image').length;
    }
    if (!inbox.next) return { texts, images, pages: pages + 1 };
    expect(inbox.left).toBeGreaterThan(0);
    after = inbox.next;
  }
}

describe('every answer has a byte budget (issue 37, finding 6)', () => {
  it('five pushes of four 3 MB images: no answer over budget, every image read, those that do not fit asked for by name', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await callTool(agent, 'aiti_inbox');
    for (let i = 0; i < 5; i++)
      await push(bridge, { text: `shot ${i}`, images: [0, 1, 2, 3].map((n) => png(MAX_IMAGE_BYTES, i * 4 + n)) });
    const read = await readAll(agent);
    expect(read.texts).toEqual(['shot 0', 'shot 1', 'shot 2', 'shot 3', 'shot 4']);
    expect(read.images).toBe(20);
  }, 120_000);

  it('the 50-image inbox is read in full, in pages', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await callTool(agent, 'aiti_inbox');
    for (let i = 0; i < 50; i += 4) {
      const count = Math.min(4, 50 - i);
      await push(bridge, {
        text: `batch ${i}`,
        images: Array.from({ length: count }, (_, n) => png(1_000_000, i + n)),
      });
    }
    const read = await readAll(agent);
    expect(read.texts).toHaveLength(13);
    expect(read.images).toBe(50);
    expect(read.pages).toBeGreaterThan(1);
  }, 120_000);

  it('60 messages of 99,000 characters come in pages under the budget, every one read', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    await callTool(agent, 'aiti_inbox');
    for (let i = 0; i < 60; i++) await push(bridge, { text: `${i} ${'w'.repeat(99_000)}` });
    const read = await readAll(agent);
    expect(read.texts.map((t) => t.split(' ')[0])).toEqual(Array.from({ length: 60 }, (_, i) => String(i)));
    expect(read.texts.every((t) => t.length === `${t.split(' ')[0]} `.length + 99_000)).toBe(true);
  }, 120_000);

  it('100 long console lines: page_logs pages by bytes, says what is left, and every line is read', async () => {
    const bridge = await startBridge({ limits: { bufferBytesPerPage: 16 * 1024 * 1024 } });
    const page = await ScriptedPage.connect(bridge.url);
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    const base = Date.now() - 100_000;
    for (let batch = 0; batch < 10; batch++) {
      const entries: LogEntry[] = Array.from({ length: 10 }, (_, n) => ({
        level: 'log',
        text: `line ${batch * 10 + n} ${'t'.repeat(19_000)}`,
        stack: 's'.repeat(19_000),
        at: new Date(base + (batch * 10 + n) * 10).toISOString(),
      }));
      const res = await http(`${bridge.url}/bridge/event`, {
        body: { pageId: page.pageId, secret: page.secret, type: 'page_log', payload: entries },
      });
      expect(res.status).toBe(204);
    }
    const seen: string[] = [];
    for (let before: string | undefined; ;) {
      const result = await callTool(agent, 'page_logs', { pageId: page.pageId, ...(before ? { before } : {}) });
      withinBudget(result);
      const answer = result.structuredContent as { entries: LogEntry[]; matched: number; before?: string };
      seen.unshift(...answer.entries.map((e) => e.text.split(' ').slice(0, 2).join(' ')));
      if (!answer.before) break;
      expect(answer.entries.length).toBeLessThan(answer.matched);
      before = answer.before;
    }
    expect(seen).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`));
  }, 120_000);

  it('the other tools keep to the same budget: a 3 MB DOM.getHTML and a 9 MB screenshot are cut, and say how to ask for less', async () => {
    const bridge = await startBridge();
    const html = `<main>${'<p>lorem ipsum dolor</p>\n'.repeat(120_000)}</main>`;
    const shot = png(7 * 1024 * 1024, 1);
    const page = await ScriptedPage.connect(bridge.url, {
      handler: (cmd): Json =>
        cmd === 'DOM.getHTML'
          ? { html }
          : cmd === 'Page.screenshot'
            ? { ...shot, width: 4000, height: 30_000, note: 'a DOM rendering' }
            : { echo: cmd },
    });
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });

    const big = await callTool(agent, 'page_exec', { pageId: page.pageId, cmd: 'DOM.getHTML' });
    withinBudget(big);
    const text = big.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toContain('<p>lorem ipsum dolor</p>');
    expect(text).toMatch(/\[cut: this answer had \d+ KiB; one answer holds 256 KiB: pass a target/);
    // as a model's client reads it (Claude Code, Codex, Gemini CLI ask for no structuredContent): the text is cut alike
    const model = await connectAgent(bridge.url, { clientName: 'codex', structured: false });
    const read = await callTool(model, 'page_exec', { pageId: page.pageId, cmd: 'DOM.getHTML' });
    withinBudget(read);
    expect(read.structuredContent).toBeUndefined();
    expect(read.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')).toMatch(
      /<p>lorem ipsum dolor<\/p>\n…\n\[cut: this answer had \d+ KiB; one answer holds 256 KiB: pass a target/,
    );

    const screenshot = await callTool(agent, 'page_exec', { pageId: page.pageId, cmd: 'Page.screenshot' });
    withinBudget(screenshot);
    expect(screenshot.content.filter((c) => c.type === 'image')).toEqual([]);
    expect(screenshot.content.find((c) => c.type === 'text')).toMatchObject({
      text: expect.stringMatching(
        /an image of \d+ KiB as base64 left out: one answer holds 6144 KiB of images; .*maxWidth/,
      ),
    });
  });

  it('a real page in Chinese: the page agent’s own 200,000-character cut is over 400 KiB of UTF-8, and the bridge cuts it to the budget', async () => {
    await ensurePageAgentBuilt();
    const bridge = await startBridge();
    // the rows are written by the page's own script, as an app renders a long list; the page agent cuts its answer at
    // RESULT_CHAR_LIMIT characters, which in Chinese is three bytes each
    const site = await serveFixture({
      '/': `<!doctype html><html><head><title>Orders</title>${agentTag(bridge)}</head><body><main id="rows"></main>
<script>document.getElementById('rows').innerHTML = '<p>订单明细第一行客户地址</p>'.repeat(100000);</script>
</body></html>`,
    });
    const { newPage } = await launchBrowser();
    const page = await openPage(bridge, await newPage(), `${site.url}/`);
    const agent = await connectAgent(bridge.url, { clientName: 'claude' });
    const html = await callTool(agent, 'page_exec', { pageId: page.pageId, cmd: 'DOM.getHTML' });
    withinBudget(html);
    const text = html.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(text).toContain('<p>订单明细第一行客户地址</p>');
    expect(text).toMatch(/\[cut: this answer had \d{3} KiB; one answer holds 256 KiB: pass a target/);
  }, 60_000);
});
