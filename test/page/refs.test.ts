import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, exec, openPage } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

// what commands do with refs in general (a snapshot's refs clicked and typed into) is in commands.test.ts
describe('refs across documents and re-renders', () => {
  it('a ref never names another element: not after a re-render, not after a reload, not past 500 refs', async () => {
    const bridge = await startBridge();
    // 600 buttons: more refs than one block of numbers the page reserves at a time
    const buttons = Array.from(
      { length: 600 },
      (_, i) =>
        `<button id="b${i}" onclick="document.getElementById('out').textContent = 'clicked ${i}'">Item ${i}</button>`,
    ).join('');
    const site = await serveFixture({
      '/': `<!doctype html><title>Many</title>${agentTag(bridge)}<body>${buttons}<p id="out"></p></body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    let page = await openPage(bridge, tab, site.url + '/');
    const refsOf = async () => {
      const all = (await exec(bridge, page, 'DOM.query', { target: 'css=button', all: true, limit: 500 })) as {
        matches: Array<{ ref: string }>;
      };
      const last = (await exec(bridge, page, 'DOM.query', { target: 'css=#b550' })) as { matches: [{ ref: string }] };
      return [...all.matches.map((m) => m.ref), last.matches[0].ref];
    };
    const number = (ref: string) => Number(ref.slice(1));
    const click = (target: string) => exec(bridge, page, 'Input.click', { target });

    // 501 refs: one more than a block, and the last of them the first number after it
    const before = await refsOf();
    expect(new Set(before).size).toBe(501);
    // an element keeps its ref from one call to the next
    const first = (await exec(bridge, page, 'DOM.query', { target: 'css=#b0' })) as { matches: [{ ref: string }] };
    expect(first.matches[0].ref).toBe(before[0]);
    // short refs: one after another, not a block's worth apart
    expect(Math.max(...before.map(number)) - Math.min(...before.map(number))).toBe(500);
    const ref550 = before[500] ?? '';
    await click(ref550);
    expect(await tab.textContent('#out')).toBe('clicked 550');

    // a reload: every ref of the old document is refused, and the new document's refs are all new numbers
    await tab.reload();
    page = await openPage(bridge, tab, site.url + '/');
    for (const ref of [before[0] ?? '', ref550]) {
      const refused = click(ref);
      await expect(refused).rejects.toThrow(/is from an earlier document of this page.*refs start at e\d+/);
    }
    expect(await tab.textContent('#out')).toBe('');
    // the first number of the new document names nothing before that document hands it out
    const refusal = await click(ref550).catch((error: unknown) => String(error));
    const start = /refs start at (e\d+)/.exec(String(refusal))?.[1] ?? '';
    await expect(click(start)).rejects.toThrow(`ref ${start} was never handed out by this document`);
    const after = await refsOf();
    expect(Math.min(...after.map(number))).toBeGreaterThan(Math.max(...before.map(number)));
    // where this document's refs start, still right once it took its second block of numbers
    await expect(click(ref550)).rejects.toThrow(`refs start at e${Math.min(...after.map(number))})`);
    expect(new Set(after).size).toBe(501);
    await click(after[500] ?? '');
    expect(await tab.textContent('#out')).toBe('clicked 550');

    // the app re-renders button 3: its ref is refused, and the new button gets a new ref
    await tab.evaluate(() => {
      const old = document.getElementById('b3');
      const fresh = document.createElement('button');
      fresh.id = 'b3';
      fresh.textContent = 'Item 3';
      fresh.onclick = () => ((document.getElementById('out') as HTMLElement).textContent = 'clicked new 3');
      old?.replaceWith(fresh);
    });
    await expect(click(after[3] ?? '')).rejects.toThrow(
      /ref e\d+ named an element that is no longer in the page.*page_snapshot/,
    );
    expect(await tab.textContent('#out')).toBe('clicked 550');
    const again = (await exec(bridge, page, 'DOM.query', { target: 'css=#b3' })) as { matches: [{ ref: string }] };
    expect([...before, ...after]).not.toContain(again.matches[0].ref);
    await click(again.matches[0].ref);
    expect(await tab.textContent('#out')).toBe('clicked new 3');
  });
});
