import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { ensureWindowBuilt } from './build-window.js';
import { helloAgent, openWindowPage } from './window-page.js';

beforeAll(async () => {
  await ensureWindowBuilt();
}, 150_000);

describe('reading what you decide', () => {
  it('a page script shows as code with its own line breaks, its POST and cookie lines pointed out; a Deny reads "Denied"', async () => {
    const bridge = await startBridge();
    const page = await ScriptedPage.connect(bridge.url, { url: 'http://localhost:5173/admin' });
    const claude = await helloAgent(bridge.url, 'claude', { pageId: page.pageId });
    const script = [
      'const rows = document.querySelectorAll("tr.stale");',
      'await fetch("/api/cache/purge", { method: "POST", body: JSON.stringify({ all: true }) });',
      'document.cookie = "seen=1";',
      'return rows.length;',
    ].join('\n');
    const call = claude.callTool({
      name: 'page_exec',
      arguments: { cmd: 'Runtime.evaluate', args: { expression: script, awaitPromise: true } },
    });
    const window = await openWindowPage(bridge.uiUrl);
    const card = window.getByRole('article', { name: 'Page command from claude' });
    const code = card.locator('.command-code');
    await code.waitFor();
    // the script reads as written: four lines, quotes as quotes, no \n or \" escapes
    expect(await code.locator('.code-line').allInnerTexts()).toEqual(script.split('\n'));
    expect(await card.textContent()).not.toContain('\\n');
    const risks = card.getByRole('list', { name: 'look at before allowing' });
    expect(await risks.locator('li').allInnerTexts()).toEqual([
      '⚠ expression line 2: sends a request that changes data',
      '⚠ expression line 3: reads or writes cookies',
    ]);
    expect(await code.locator('.code-line.risky').evaluateAll((lines) => lines.map((l) => l.dataset.line))).toEqual([
      '2',
      '3',
    ]);

    await card.getByRole('button', { name: 'Deny' }).click();
    const result = (await call) as { isError?: boolean };
    expect(result.isError).toBe(true);
    const ended = window.locator('.card.ended', { hasText: 'run a script' });
    await ended.locator('.outcome-chip', { hasText: 'Denied' }).waitFor();
    expect(await ended.locator('.outcome-chip').getAttribute('class')).toContain('tone-danger');
    const record = window.locator('.ask-record', { hasText: 'run a script' });
    await record.locator('.outcome-chip', { hasText: 'Denied' }).waitFor();
    expect(await record.textContent()).not.toContain('Answered');
  });

  it('a long prompt folds with its question in view; ended cards and History render its markdown', async () => {
    const bridge = await startBridge();
    const claude = await helloAgent(bridge.url, 'claude');
    const window = await openWindowPage(bridge.uiUrl);
    const plan = Array.from({ length: 14 }, (_, i) => `- step ${i + 1}: migrate table \`t${i + 1}\``).join('\n');
    const prompt = `## Plan\n\n${plan}\n\nShall I run it against **admin**, not staging?`;
    const call = claude.callTool({ name: 'user_confirm', arguments: { prompt, timeoutMs: 60_000 } });
    const card = window.getByRole('article', { name: 'Confirm from claude' });
    await card.locator('.prompt.folded').waitFor();
    const question = card.locator('.prompt-question');
    expect(await question.innerText()).toBe('Shall I run it against admin, not staging?');
    expect(await question.locator('strong').innerText()).toBe('admin');
    expect(await question.isVisible()).toBe(true);
    // the question is not under the fold's fade: it lies below the folded part
    const head = await card.locator('.prompt-head').boundingBox();
    const shown = await question.boundingBox();
    expect(shown && head && shown.y >= head.y + head.height - 1).toBe(true);

    await card.getByRole('button', { name: /Yes/ }).click();
    await call;
    const ended = window.locator('.card.ended', { hasText: 'Shall I run it' });
    await ended.waitFor();
    expect(await ended.locator('.ended-prompt strong').innerText()).toBe('admin');
    expect(await ended.textContent()).not.toContain('**');
    const record = window.locator('.ask-record', { hasText: 'Shall I run it' });
    await record.waitFor();
    expect(await record.locator('.record-prompt strong').innerText()).toBe('admin');
    expect(await record.textContent()).not.toContain('**');
    await record.getByRole('button', { name: 'Show the whole question' }).click();
    expect(await record.locator('.record-prompt .md-heading').innerText()).toBe('Plan');
    expect(await record.locator('.record-prompt li').count()).toBe(14);
  });
});
