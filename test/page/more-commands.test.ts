import { beforeAll, describe, expect, it } from 'vitest';
import { RESULT_CHAR_LIMIT, TRUNCATED_MARK, type Json, type SnapshotResult } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

const BODY = `
  <h1>Widgets</h1>
  <p id="status">idle</p>
  <label><input type="checkbox" id="agree"> Agree</label>
  <input id="field" onkeydown="if (event.key === 'Escape') this.value = 'escaped'">
  <div id="hover" onmouseover="this.textContent = 'hovered'">hover me</div>
  <button id="later" onclick="setTimeout(() => { const p = document.createElement('p'); p.textContent = 'Loaded!'; document.body.append(p) }, 200)">Load</button>
  <fancy-card></fancy-card>
  <div style="height: 3000px"></div>
  <p id="bottom">bottom</p>
  <script>
    customElements.define('fancy-card', class extends HTMLElement {
      constructor() { super(); this.attachShadow({ mode: 'open' }).innerHTML = '<button>Inside shadow</button>'; }
    });
    window.jQuery = { fn: { jquery: '3.7.1' } };
  </script>`;

async function open(extra = '') {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Widgets</title>${agentTag(bridge)}<body>${BODY}${extra}</body>`,
  });
  const browser = await launchBrowser();
  const tab = await browser.newPage();
  await tab.goto(server.url + '/');
  const page = await connectedPage(bridge, server.url + '/');
  const run = (cmd: string, args: Json = {}) => exec(bridge, page, cmd, args) as Promise<Record<string, Json>>;
  return { bridge, server, browser, tab, page, run };
}

describe('page commands', () => {
  it('reads the DOM: query, text, html; shadow DOM is in the snapshot and reachable by ref; frameworks detected', async () => {
    const { run } = await open();
    const query = await run('DOM.query', { target: 'css=#status' });
    expect(query).toMatchObject({ count: 1, matches: [{ tag: 'p', text: 'idle', selector: '#status' }] });
    expect(await run('DOM.query', { target: 'css=.nothing' })).toMatchObject({
      count: 0,
      hint: expect.stringContaining('page_snapshot'),
    });
    expect((await run('DOM.getText', { target: 'text=Widgets' })).text).toBe('Widgets');
    expect((await run('DOM.getHTML', { target: '#status' })).html).toBe('<p id="status">idle</p>');

    const snap = (await run('Snapshot.take')) as unknown as SnapshotResult;
    expect(snap.frameworks).toContain('jQuery');
    const ref = /(e\d+) button "Inside shadow"/.exec(snap.outline)?.[1];
    expect(ref).toBeDefined();
    expect(await run('Input.click', { target: ref ?? '' })).toMatchObject({
      element: expect.stringContaining('Inside shadow'),
    });
  });

  it('acts like a person: check, hover, press, scroll; waitFor sees late content; layout measures', async () => {
    const { tab, run } = await open();
    expect(await run('Input.check', { target: 'text=Agree' })).toMatchObject({ checked: true });
    expect(await tab.isChecked('#agree')).toBe(true);
    await run('Input.hover', { target: '#hover' });
    expect(await tab.textContent('#hover')).toBe('hovered');
    await run('Input.type', { target: '#field', text: 'abc' });
    await run('Input.press', { target: '#field', key: 'Backspace' });
    expect(await tab.inputValue('#field')).toBe('ab');
    await run('Input.press', { target: '#field', key: 'Escape' });
    expect(await tab.inputValue('#field')).toBe('escaped');
    const scrolled = await run('Input.scroll', { to: 'bottom' });
    expect(Number(scrolled.scrollY)).toBeGreaterThan(1000);

    await run('Input.click', { target: 'text=Load' });
    expect(await run('Page.waitFor', { text: 'Loaded!', timeoutMs: 3000 })).toMatchObject({ found: 'text "Loaded!"' });
    await expect(run('Page.waitFor', { selector: '#never', timeoutMs: 300 })).rejects.toThrow(
      /did not appear within 300 ms/,
    );

    const layout = await run('Page.layout', { target: '#status' });
    expect(layout).toMatchObject({ visible: true, style: expect.objectContaining({ display: 'block' }) });
  });

  it('evaluates script, reads and writes storage', async () => {
    const { run } = await open();
    expect(await run('Runtime.evaluate', { expression: '1 + 2' })).toEqual({ value: 3 });
    expect(await run('Runtime.evaluate', { expression: 'fetch("/").then(r => r.status)', awaitPromise: true })).toEqual(
      { value: 200 },
    );
    expect(await run('Runtime.evaluate', { expression: 'document.querySelector("h1")' })).toEqual({ value: '<h1>' });
    await expect(run('Runtime.evaluate', { expression: 'nope()' })).rejects.toThrow(
      /ReferenceError: nope is not defined/,
    );

    await run('Storage.set', { area: 'local', key: 'theme', value: 'dark' });
    expect(await run('Storage.get', { area: 'local' })).toEqual({ items: { theme: 'dark' } });
    await run('Storage.set', { area: 'cookie', key: 'flavour', value: 'oat meal' });
    expect(await run('Storage.get', { area: 'cookie', key: 'flavour' })).toEqual({ key: 'flavour', value: 'oat meal' });
    await run('Storage.set', { area: 'local', key: 'theme', value: null });
    expect(await run('Storage.get', { area: 'local', key: 'theme' })).toEqual({ key: 'theme', value: null });
  });

  it('caps big results with the truncation mark', async () => {
    const { run } = await open();
    const result = await run('Runtime.evaluate', { expression: '"x".repeat(500000)' });
    const value = String(result.value);
    expect(value.length).toBeLessThan(200_000);
    expect(value.endsWith(TRUNCATED_MARK)).toBe(true);
  });

  it('a result of many small parts is cut, as a last resort, to exactly the limit and says so', async () => {
    const { run, tab } = await open();
    // 20,000 short entries: no single string or list is big enough to cut on its own
    await tab.evaluate(() => {
      for (let i = 0; i < 20_000; i++) localStorage.setItem(`key${i}`, `value ${i}`);
    });
    const result: unknown = await run('Storage.get', { area: 'local' });
    expect(typeof result).toBe('string');
    expect((result as string).length).toBe(RESULT_CHAR_LIMIT);
    expect((result as string).startsWith('{"items":{')).toBe(true);
    expect((result as string).endsWith(TRUNCATED_MARK)).toBe(true);
  });

  it('a big list is halved until the result fits, even beside a small one: still a list, the mark as its last item', async () => {
    const { run } = await open(
      `<form>${Array.from({ length: 2500 }, (_, i) => `<input name="field${i}">`).join('')}</form>`,
    );
    const result = await run('UI.scan', {});
    const [form] = result.forms as Array<{ fields: Json[] }>;
    expect(form?.fields.at(-1)).toBe(TRUNCATED_MARK);
    expect(form?.fields[0]).toMatchObject({ name: 'field0', type: 'text' });
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(RESULT_CHAR_LIMIT);
  });

  it('Page.screenshot renders the DOM to an image and says so', async () => {
    const { run } = await open();
    const shot = await run('Page.screenshot', { target: 'h1' });
    expect(shot.mimeType).toMatch(/^image\/(png|jpeg)$/);
    expect(Buffer.from(String(shot.data), 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(shot.note).toMatch(/DOM rendering/);
    expect(Number(shot.width)).toBeGreaterThan(10);
    const page = await run('Page.screenshot', { maxWidth: 640 });
    expect(page).toMatchObject({ width: 640, height: 400 });
    expect(String(page.data).length).toBeLessThan(200_000);
  });

  it('the gesture bridge: a command that needs a user gesture runs inside the human click on the in-page button', async () => {
    const { tab, run } = await open();
    const result = run('Runtime.evaluate', {
      expression: 'navigator.userActivation.isActive && window.open("about:blank") !== null',
    });
    const button = tab.locator('aiti-overlay [data-aiti-gesture]');
    await button.waitFor();
    await button.click();
    expect(await result).toMatchObject({ value: true, note: expect.stringContaining('gesture bridge') });
  });

  it('User.notify shows a browser Notification when allowed, else an in-page toast', async () => {
    const { tab, run } = await open();
    expect(await run('User.notify', { body: 'Build finished', title: 'Agent' })).toEqual({
      shown: 'toast',
      permission: 'default',
    });
    expect(await tab.locator('aiti-overlay .toast').first().textContent()).toContain('Build finished');

    const granted = await open();
    await granted.browser.context.grantPermissions(['notifications'], { origin: granted.server.url });
    expect(await granted.run('User.notify', { body: 'Tests pass' })).toEqual({
      shown: 'notification',
      permission: 'granted',
    });
  });

  it('a page whose CSP blocks the bridge says in the console what to allow', async () => {
    const bridge = await startBridge();
    const csp = "default-src 'self'; script-src 'self' 'unsafe-inline' http://127.0.0.1:*; connect-src 'self'";
    const server = await serveFixture({
      '/': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': csp });
        res.end(`<!doctype html>${agentTag(bridge)}<p>locked down</p>`);
      },
    });
    const tab = await (await launchBrowser()).newPage();
    const warnings: string[] = [];
    tab.on('console', (m) => {
      if (m.type() === 'warning' && m.text().startsWith('[aiti]')) warnings.push(m.text());
    });
    await tab.goto(server.url + '/');
    await waitFor(() => warnings.length > 0, 5000, 'the CSP warning');
    await new Promise((r) => setTimeout(r, 1000));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`connect-src 'self' ${bridge.url}`);
  });

  it('User.pick closes itself after its timeoutMs, and a second pick replaces the first', async () => {
    const { tab, run } = await open();
    expect(await run('User.pick', { prompt: 'quick', timeoutMs: 300 })).toEqual({ picked: false, reason: 'timeout' });
    expect(await tab.locator('aiti-overlay .banner').count()).toBe(0);
    const first = run('User.pick', { prompt: 'first' });
    await tab.locator('aiti-overlay .banner').waitFor();
    const second = run('User.pick', { prompt: 'second', timeoutMs: 300 });
    expect(await first).toEqual({ picked: false, reason: 'replaced' });
    expect(await second).toEqual({ picked: false, reason: 'timeout' });
  });

  it('a huge list: collapsed to its first rows and a count; expanded by target, the outline stops at the size limit and says so', async () => {
    const rows =
      '<script>document.write(Array.from({length: 6000}, (_, i) => `<li><a href="/item/${i}">Item number ${i} of the long list</a></li>`).join(""))</script>';
    const { run } = await open(`<ul>${rows}</ul>`);
    const snap = (await run('Snapshot.take')) as unknown as SnapshotResult;
    if (process.env.SHOW) console.error(snap.outline);
    expect(snap.truncated).toBeUndefined();
    expect(snap.outline).toContain('link "Item number 2 of the long list"');
    expect(snap.outline).not.toContain('Item number 3 of');
    const more = /… 5997 more like these \(all: page_snapshot \{"target":"(e\d+)"\}\)/.exec(snap.outline);
    expect(more?.[1]).toBeDefined();
    const all = (await run('Snapshot.take', { target: more?.[1] ?? '' })) as unknown as SnapshotResult;
    expect(all.truncated).toBe(true);
    expect(all.outline.length).toBeLessThan(200_000);
    expect(all.outline).toMatch(/outline cut at the size limit/);
    expect(all.outline).toContain('Item number 1000 of');
    expect(all.refs).toBeGreaterThan(1000);
  });
});
