import { beforeAll, describe, expect, it } from 'vitest';
import type { SnapshotResult } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, ensurePageAgentBuilt, exec, openPage } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** What component libraries render: custom comboboxes and sliders, styled text, rows, a modal with focus traps. */
function widgetsPage(tag: string): string {
  const rows = Array.from(
    { length: 30 },
    (_, i) => `<tr><td>Order ${i}</td><td>${i * 10} €</td><td><button>Refund</button></td></tr>`,
  ).join('');
  const paragraphs = Array.from({ length: 12 }, (_, i) => `<p>Paragraph ${i} of the article.</p>`).join('');
  return `<!doctype html><html><head><title>Widgets</title>${tag}
  <style>.shout { text-transform: uppercase } .sr { position: absolute; width: 1px; height: 1px; overflow: hidden }</style></head><body>
  <main>
    <button class="shout">Edit profile</button>
    <span id="role-label">Role</span>
    <div role="combobox" aria-labelledby="role-label" aria-expanded="false" tabindex="0"><span>Administrator</span></div>
    <div role="slider" aria-label="Volume" aria-valuenow="30" aria-valuetext="30 percent" tabindex="0"></div>
    <label>Start <input type="date" value="2026-12-01"></label>
    <label>Level <input type="range" min="0" max="10" value="7"></label>
    <div class="wrapper"><div class="inner"><a href="/help">Help</a></div></div>
    <form><label>Search <input name="q"></label></form>
    <table><tbody>${rows}</tbody></table>
    <section>${paragraphs}</section>
  </main>
  <div role="presentation" class="modal-root">
    <div tabindex="0" data-testid="sentinelStart"></div>
    <div role="dialog" aria-modal="true" aria-labelledby="dlg-title">
      <h2 id="dlg-title">Confirm</h2>
      <button>OK</button>
    </div>
    <div tabindex="0" data-testid="sentinelEnd"></div>
  </div>
  </body></html>`;
}

describe('what the outline says, and what it leaves out', () => {
  it('names and values as the AX tree has them, no wrapper or sentinel lines, runs of rows collapsed, the modal alone', async () => {
    const bridge = await startBridge();
    const site = await serveFixture({ '/': widgetsPage(agentTag(bridge)) });
    const tab = await (await launchBrowser()).newPage();
    const page = await openPage(bridge, tab, site.url + '/');

    // with the modal open: the dialog, without the focus-trap sentinels around it, and one line for the page
    const modal = (await exec(bridge, page, 'Snapshot.take')) as unknown as SnapshotResult;
    if (process.env.SHOW) console.error(modal.outline);
    expect(modal.outline.split('\n')).toEqual([
      'dialog "Confirm" [modal]',
      expect.stringMatching(/^ {2}e\d+ button "OK"$/),
      '(behind it: "Widgets", inert)',
    ]);
    expect(modal.refs).toBe(1);

    await tab.evaluate(() => document.querySelector('.modal-root')?.remove());
    const snap = (await exec(bridge, page, 'Snapshot.take')) as unknown as SnapshotResult;
    const outline = snap.outline;
    if (process.env.SHOW) console.error(outline);
    expect(outline).toMatch(/e\d+ button "Edit profile"/); // not "EDIT PROFILE"
    expect(outline).toMatch(/e\d+ combobox "Role" ="Administrator"/);
    expect(outline).toMatch(/e\d+ slider "Volume" ="30 percent"/);
    expect(outline).toMatch(/e\d+ textbox:date "Start" ="2026-12-01"/);
    expect(outline).toMatch(/e\d+ slider "Level" ="7"/); // no ":range": the role says it
    expect(outline).toMatch(/^ {2}e\d+ link "Help" →\/help$/m); // the wrappers around it have no line
    expect(outline).toMatch(/^ {2}e\d+ textbox "Search"$/m); // an unnamed form is no line either
    expect(outline).not.toContain('sentinel');
    // 30 rows: the first 3, then a count and the ref that expands them
    expect(outline).toContain('cell "Order 2"');
    expect(outline).not.toContain('Order 3');
    const more = /… 27 more like these \(all: page_snapshot \{"target":"(e\d+)"\}\)/.exec(outline);
    expect(more).not.toBeNull();
    // text is never counted away: the paragraphs stay text
    expect(outline.match(/more like these/g)).toHaveLength(1);
    expect(outline).toContain('"Paragraph 0 of the article. Paragraph 1 of the article.');

    // expanding through the MCP tool: every row, and only that part of the page
    const agent = await connectAgent(bridge.url);
    const all = await callTool(agent, 'page_snapshot', { target: more?.[1] });
    const rows = resultText(all);
    expect(rows).toContain('cell "Order 29"');
    expect(rows).not.toContain('Edit profile');
    // depth: deeper levels become …
    const shallow = String((await callTool(agent, 'page_snapshot', { depth: 1 })).structuredContent?.outline);
    expect(shallow).not.toContain('Order 0');
    expect(shallow).toContain('…');
  });
});
