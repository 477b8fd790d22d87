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
