import { beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotResult } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, exec, openPage } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

function formPage(tag: string): string {
  return `<!doctype html><html><head><title>Plain form</title>${tag}</head><body>
  <h1>Sign up</h1>
  <form id="signup" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'hello ' + this.name.value + ' (' + this.plan.value + ')'">
    <label>Name <input name="name" required></label>
    <label for="mail">Email</label><input id="mail" type="email" placeholder="you@example.com">
    <label><input type="checkbox" name="terms"> I agree</label>
    <select name="plan"><option value="free">Free</option><option value="pro">Pro</option></select>
    <button>Create account</button>
  </form>
  <p id="out"></p>
  <div style="display:none"><button>Hidden button</button></div>
  </body></html>`;
}

describe('page agent commands in a real browser', () => {
  it('snapshots the page with refs, clicks and types by ref', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({ '/': formPage(agentTag(bridge)) });
    const tab = await (await launchBrowser()).newPage();
    const page = await openPage(bridge, tab, site.url + '/');

    const snapshot = (await exec(bridge, page, 'Snapshot.take')) as unknown as SnapshotResult;
    if (process.env.SHOW) console.error(snapshot.outline);
    expect(snapshot.title).toBe('Plain form');
    expect(snapshot.outline).toContain('heading[1] "Sign up"');
    expect(snapshot.outline).not.toContain('Hidden button');
    const nameRef = /(e\d+) textbox "Name"/.exec(snapshot.outline)?.[1];
    const buttonRef = /(e\d+) button "Create account"/.exec(snapshot.outline)?.[1];
    expect(nameRef).toBeDefined();
    expect(buttonRef).toBeDefined();

    await exec(bridge, page, 'Input.type', { target: nameRef ?? '', text: 'Ada' });
    await exec(bridge, page, 'Input.select', { target: 'css=select', values: ['Pro'] });
    await exec(bridge, page, 'Input.click', { target: buttonRef ?? '' });
    expect(await tab.textContent('#out')).toBe('hello Ada (pro)');
  });

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
    const after = await refsOf();
    expect(Math.min(...after.map(number))).toBeGreaterThan(Math.max(...before.map(number)));
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

  it('says when a target matches nothing, and suggests a snapshot', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({ '/': formPage(agentTag(bridge)) });
    const tab = await (await launchBrowser()).newPage();
    const page = await openPage(bridge, tab, site.url + '/');
    await expect(exec(bridge, page, 'Input.click', { target: 'css=#nope' })).rejects.toThrow(
      /no element matches "css=#nope".*take a new page_snapshot/,
    );
    await expect(exec(bridge, page, 'Input.click', { target: 'e999' })).rejects.toThrow(
      /ref e999 was never handed out by this document; take a new page_snapshot/,
    );
    await expect(exec(bridge, page, 'Input.click', {})).rejects.toThrow(/field "target"/);
  });
});
