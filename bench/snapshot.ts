import type { Browser, Page } from 'playwright-core';
import { connectMcp } from './agent.js';
import { spawnBridge } from './bridge-process.js';
import { waitForPage } from './human.js';
import { servePages } from './page-server.js';
import { percentile, round, type BenchRow } from './report.js';

const RUNS = 10;

/** A dashboard-like page of well over 5,000 elements: nav, a big table with actions, a task list, a form, text. */
function largePage(agentTag: string): string {
  const nav = Array.from({ length: 40 }, (_, i) => `<li><a href="#s${i}">Section ${i}</a></li>`).join('');
  const rows = Array.from(
    { length: 500 },
    (_, i) =>
      `<tr><td>${i}</td><td>Customer ${i}</td><td>${(i * 37) % 1000} €</td><td><a href="#o${i}">Order ${i}</a></td><td><button>Refund ${i}</button></td></tr>`,
  ).join('');
  const tasks = Array.from(
    { length: 300 },
    (_, i) => `<li><label><input type="checkbox"${i % 3 ? '' : ' checked'}> <span>Task ${i}</span></label></li>`,
  ).join('');
  const fields = Array.from(
    { length: 50 },
    (_, i) => `<label for="f${i}">Field ${i}</label><input id="f${i}" name="f${i}" placeholder="value ${i}">`,
  ).join('');
  const text = Array.from(
    { length: 400 },
    (_, i) => `<p>Paragraph ${i} with <em>some</em> text that an agent rarely needs.</p>`,
  ).join('');
  return `<!doctype html><html><head><title>large page</title>${agentTag}</head><body>
  <header><nav><ul>${nav}</ul></nav></header>
  <main><h1>Orders</h1><table><thead><tr><th>#</th><th>Customer</th><th>Total</th><th>Order</th><th>Action</th></tr></thead><tbody>${rows}</tbody></table>
  <h2>Tasks</h2><ul>${tasks}</ul>
  <h2>Settings</h2><form>${fields}<button type="submit">Save</button></form>
  <section>${text}</section></main></body></html>`;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; p50: number }> {
  let value: T | undefined;
  const samples: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const started = performance.now();
    value = await run();
    if (i >= 2) samples.push(performance.now() - started);
  }
  return { value: value as T, p50: percentile(samples, 50) };
}

/** Chromium's own accessibility tree (CDP Accessibility.getFullAXTree), one compact line per non-ignored node. */
async function chromiumAxTree(tab: Page): Promise<string> {
  const cdp = await tab.context().newCDPSession(tab);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: Array<{
        nodeId: string;
        parentId?: string;
        ignored: boolean;
        role?: { value?: unknown };
        name?: { value?: unknown };
        childIds?: string[];
      }>;
    };
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const lines: string[] = [];
    const walk = (id: string, depth: number) => {
      const node = byId.get(id);
      if (!node) return;
      const shown = !node.ignored;
      if (shown) {
        const name = typeof node.name?.value === 'string' && node.name.value ? ` "${node.name.value}"` : '';
        lines.push(`${'  '.repeat(depth)}${String(node.role?.value ?? '')}${name}`);
      }
      for (const child of node.childIds ?? []) walk(child, shown ? depth + 1 : depth);
    };
    const root = nodes.find((n) => !n.parentId);
    if (root) walk(root.nodeId, 0);
    return lines.join('\n');
  } finally {
    await cdp.detach();
  }
}

/** page_snapshot on a large page: its size and time, beside Chromium's own accessibility snapshots of it. */
export async function snapshotBench(browser: Browser, notes: string[]): Promise<BenchRow[]> {
  const bridge = await spawnBridge();
  const site = await servePages({ '/': largePage(`<script src="${bridge.url}/aiti/page.js"></script>`) });
  const tab = await browser.newPage();
  const agent = await connectMcp(bridge.url, 'bench-snapshot', 'streamable');
  try {
    await tab.goto(site.url + '/');
    const elements = await tab.evaluate(() => document.querySelectorAll('*').length);
    if (elements < 5000) throw new Error(`the large page has only ${elements} elements`);
    const pageId = await waitForPage(agent, site.url);
    const ours = await timed(async () => {
      const result = await agent.callTool({ name: 'page_snapshot', arguments: { pageId } });
      if (result.isError) throw new Error(`page_snapshot failed: ${JSON.stringify(result.content)}`);
      const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
      const outline = (result.structuredContent as { outline?: unknown } | undefined)?.outline;
      return { text: text.length, outline: typeof outline === 'string' ? outline.length : NaN };
    });
    const aria = await timed(() => tab.locator('body').ariaSnapshot());
    const ax = await timed(() => chromiumAxTree(tab));
    notes.push(
      `page_snapshot: a generated dashboard page of ${elements} elements (40 nav links, a 500-row table with a link and a button per row, 300 checkboxes, a 50-field form, 400 paragraphs). "size" is what the agent receives: the characters of the tool result's text (outline plus url, title, viewport, frameworks as JSON). Beside it, on the same page: Playwright's locator("body").ariaSnapshot() (the YAML aria snapshot Playwright MCP gives agents) and Chromium's own accessibility tree from CDP Accessibility.getFullAXTree, written compactly as one "role \\"name\\"" line per non-ignored node, indented by depth. Times are p50 of ${RUNS} after 2 warm-ups; page_snapshot is timed end to end through MCP Streamable HTTP, the other two over CDP from the benchmark.`,
    );
    const group = 'page snapshot';
    return [
      { group, name: `page elements`, value: elements, unit: 'elements', target: '≥ 5,000', met: elements >= 5000 },
      { group, name: 'page_snapshot result size (text the agent reads)', value: ours.value.text, unit: 'chars' },
      { group, name: 'page_snapshot outline alone', value: ours.value.outline, unit: 'chars' },
      { group, name: `page_snapshot time via MCP (p50 of ${RUNS})`, value: round(ours.p50, 1), unit: 'ms' },
      { group, name: 'Playwright ariaSnapshot() of the same page', value: aria.value.length, unit: 'chars' },
      { group, name: `Playwright ariaSnapshot() time (p50 of ${RUNS})`, value: round(aria.p50, 1), unit: 'ms' },
      { group, name: 'Chromium AX tree (CDP getFullAXTree, compact lines)', value: ax.value.length, unit: 'chars' },
      { group, name: `Chromium AX tree time incl. serialising (p50 of ${RUNS})`, value: round(ax.p50, 1), unit: 'ms' },
    ];
  } finally {
    await agent.close().catch(() => undefined);
    await tab.close();
    await site.close();
    await bridge.stop();
  }
}
