import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, startBridge } from '../helpers/bridge.js';
import { downloadText } from '../helpers/browser.js';
import { connectAgent } from '../helpers/mcp.js';
import { pairDevice } from '../helpers/device.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';
import { ensureWindowBuilt } from './build-window.js';
import { openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

/** The cells of a CSV file (RFC 4180: quoted fields may hold commas, quotes doubled, and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

async function save(page: Page, format: string): Promise<string> {
  await page.locator('.export-menu summary').click();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: format }).click()]);
  return downloadText(file);
}

const script = (i: number) => `fetch("/api/orders/${i}",{method:"DELETE"});\nlocalStorage.clear() // ${i}`;

describe('what was allowed is on record', () => {
  it('History and both exports show every page command whole and who decided, for 40 of 40 asks', async () => {
    const bridge = await startBridge({ remote: { host: '127.0.0.1', port: 0 } });
    const phone = (await pairDevice(bridge, 'Ana’s Pixel')).token;
    const desk = await windowClient(bridge);
    const answer = (body: Record<string, unknown>, onPhone: boolean) =>
      onPhone ? http(`${bridge.remote?.url}/bridge/answer`, { token: phone, body }) : desk.act(body);
    const tab = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:3000/orders', handler: () => 1 });
    const codex = await connectAgent(bridge.url, { clientName: 'codex' });
    const claude = await connectAgent(bridge.url, { clientName: 'claude' });
    await codex.callTool({ name: 'aiti_hello', arguments: { agentId: 'codex', pageId: tab.pageId } });
    await claude.callTool({ name: 'aiti_hello', arguments: { agentId: 'claude' } });

    // 8 page commands, allowed at the desk or denied on the phone
    for (let i = 1; i <= 8; i++) {
      void codex
        .callTool({ name: 'page_exec', arguments: { cmd: 'Runtime.evaluate', args: { expression: script(i) } } })
        .catch(() => undefined);
      const card = await desk.nextAsk();
      expect((await answer({ askId: card.askId, action: 'answer', value: i % 2 === 1 }, i % 2 === 0)).status).toBe(200);
    }
    // 24 answered (a third on the phone), 4 rejected, 4 left to time out
    const kinds = ['user_confirm', 'user_input', 'user_choose'] as const;
    for (let i = 1; i <= 32; i++) {
      const name = kinds[i % 3] ?? 'user_confirm';
      const timeout = i > 28 ? { timeoutMs: 1000 } : {};
      await claude.callTool({
        name,
        arguments: {
          prompt: `Question ${i}?`,
          async: true,
          ...timeout,
          ...(name === 'user_choose' ? { choices: ['a', 'b'] } : {}),
        },
      });
      const card = await desk.nextAsk();
      if (i > 28) continue;
      const value = name === 'user_confirm' ? true : name === 'user_choose' ? 'b' : `text ${i}`;
      const body =
        i > 24
          ? { askId: card.askId, action: 'reject', reason: 'not_now' }
          : { askId: card.askId, action: 'answer', value };
      expect((await answer(body, i % 3 === 0)).status).toBe(200);
    }
    const page = await openWindowPage(bridge.uiUrl);
    const records = page.locator('.message.ask-record');
    await expect.poll(() => records.count(), { timeout: 15_000 }).toBe(40);

    // History: each page command's script whole on its row, and who decided on every row
    const rows = await records.evaluateAll((els) => els.map((el) => (el as HTMLElement).innerText));
    for (let i = 1; i <= 8; i++) {
      const row = rows.find((r) => r.includes(`/api/orders/${i}"`));
      expect(row, `page command ${i}`).toBeDefined();
      expect(row).toContain(`localStorage.clear() // ${i}`);
      expect(row).toContain(i % 2 === 1 ? 'by you at the desk' : 'by you on Ana’s Pixel');
    }
    for (const row of rows) expect(row).toMatch(/by you at the desk|by you on Ana’s Pixel|by the bridge/);
    expect(rows.filter((r) => r.includes('by the bridge'))).toHaveLength(4);

    const md = await save(page, 'Markdown');
    const askLines = md.split('\n').filter((l) => /^- \d\d:\d\d:\d\d · (Confirm|Choose|Input|Page command) · /.test(l));
    expect(askLines).toHaveLength(40);
    for (let i = 1; i <= 8; i++) expect(md).toContain(script(i).replace('\n', '\n    '));
    expect(askLines.filter((l) => l.includes('by you on Ana’s Pixel'))).toHaveLength(4 + 9);
    expect(askLines.filter((l) => l.includes('by you at the desk'))).toHaveLength(4 + 19);
    expect(askLines.filter((l) => l.includes('by the bridge'))).toHaveLength(4);

    const csv = parseCsv(await save(page, 'CSV (spreadsheet)'));
    const [head, ...body] = csv;
    expect(head).toEqual([
      'Time',
      'Agent',
      'Kind',
      'Status',
      'Who decided',
      'Question',
      'Answer',
      'Command',
      'Script or arguments',
      'Text',
    ]);
    const asks = body.filter((r) => ['Confirm', 'Choose', 'Input', 'Page command'].includes(r[2] ?? ''));
    expect(asks).toHaveLength(40);
    for (let i = 1; i <= 8; i++)
      expect(
        asks.some((r) => r[7] === 'Runtime.evaluate' && r[8] === `expression: ${script(i)}`),
        `csv ${i}`,
      ).toBe(true);
    expect(asks.every((r) => /by you at the desk|by you on Ana’s Pixel|by the bridge/.test(r[4] ?? ''))).toBe(true);

    const json = JSON.parse(await save(page, 'JSON')) as { messages: Array<{ kind: string; payload?: unknown }> };
    expect(json.messages.filter((m) => m.kind === 'ask')).toHaveLength(40);
  }, 120_000);
});
