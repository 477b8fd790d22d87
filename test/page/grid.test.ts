import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * A data grid written to the WAI-ARIA data grid pattern, as grid libraries write theirs: role=grid, rows of
 * gridcells (tabindex=-1), edited in place — a double-click or Enter opens an editor in the cell (a text box, a
 * select, a number box), Enter keeps the value, and focus leaving the editor throws the edit away. The app's own
 * state is the model, shown as JSON.
 */
const TASKS = `
  <h1>Tasks</h1>
  <div role="grid" aria-label="Tasks" id="grid"></div>
  <pre id="state"></pre>
  <script>
    const columns = [
      { key: 'title', name: 'Title', editor: 'text' },
      { key: 'owner', name: 'Owner', editor: 'text' },
      { key: 'status', name: 'Status', editor: 'select', options: ['Todo', 'Doing', 'Done'] },
      { key: 'points', name: 'Points', editor: 'number' },
    ];
    const rows = [
      { title: 'Write docs', owner: 'Ada', status: 'Todo', points: 3 },
      { title: 'Fix login', owner: 'Linus', status: 'Doing', points: 5 },
      { title: 'Ship it', owner: 'Grace', status: 'Todo', points: 8 },
      { title: 'Plan sprint', owner: 'Ada', status: 'Done', points: 2 },
      { title: 'Review PR', owner: 'Ken', status: 'Todo', points: 1 },
      { title: 'Deploy', owner: 'Grace', status: 'Doing', points: 3 },
    ];
    const grid = document.getElementById('grid');
    const show = () => (document.getElementById('state').textContent = JSON.stringify(rows));
    const head = document.createElement('div');
    head.setAttribute('role', 'row');
    for (const c of columns) {
      const h = document.createElement('div');
      h.setAttribute('role', 'columnheader');
      h.textContent = c.name;
      head.append(h);
    }
    grid.append(head);
    rows.forEach((row, r) => {
      const line = document.createElement('div');
      line.setAttribute('role', 'row');
      line.style.display = 'flex';
      for (const c of columns) {
        const cell = document.createElement('div');
        cell.setAttribute('role', 'gridcell');
        cell.tabIndex = -1;
        cell.style.width = '140px';
        cell.textContent = String(row[c.key]);
        const edit = () => {
          if (cell.querySelector('input, select')) return;
          const editor = document.createElement(c.editor === 'select' ? 'select' : 'input');
          if (c.editor === 'number') editor.type = 'number';
          if (c.editor === 'select') for (const o of c.options) editor.append(new Option(o, o));
          editor.value = String(row[c.key]);
          const close = () => { cell.textContent = String(row[c.key]); cell.focus(); };
          editor.addEventListener('keydown', (e) => {
            if (e.key === 'Enter') { row[c.key] = c.editor === 'number' ? Number(editor.value) : editor.value; show(); close(); }
            if (e.key === 'Escape') close();
          });
          // a click elsewhere throws the edit away, as many grids do
          editor.addEventListener('blur', () => { if (editor.isConnected) close(); });
          cell.textContent = '';
          cell.append(editor);
          editor.focus();
        };
        cell.addEventListener('dblclick', edit);
        cell.addEventListener('keydown', (e) => { if (e.key === 'Enter' && e.target === cell) edit(); });
        line.append(cell);
      }
      grid.append(line);
    });
    show();
  </script>`;

async function tasks() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Tasks</title>${agentTag(bridge)}<body>${TASKS}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url);
  const page = await connectedPage(bridge, server.url);
  const agent = await connectAgent(bridge.url);
  const tool = async (name: string, args: Record<string, unknown> = {}) =>
    structured(await callTool(agent, name, { pageId: page.pageId, ...args }));
  const rows = async () => JSON.parse((await tab.textContent('#state')) ?? '[]') as Array<Record<string, unknown>>;
  const outline = async (args: Record<string, unknown> = {}) => String((await tool('page_snapshot', args)).outline);
  return { bridge, page, tool, rows, outline };
}

/** The refs of a row's cells in a snapshot line `eR row: eA "Write docs" | eB "Ada" | …`, by the row's first text. */
function rowRefs(outline: string, first: string): { row: string; cells: string[] } {
  const line = outline.split('\n').find((l) => l.includes(`"${first}"`) && l.includes(' row: '));
  if (!line) throw new Error(`no row with "${first}" in:\n${outline}`);
  const [row = '', ...cells] = [...line.matchAll(/\b(e\d+)\b/g)].map((m) => m[1] ?? '');
  return { row, cells };
}

describe('a data grid: cells with refs, edited in place', () => {
  it('every cell has a ref, a row is one line, and a snapshot of that row shows each cell on its own line', async () => {
    const { outline } = await tasks();
    const page = await outline();
    const { row, cells } = rowRefs(page, 'Write docs');
    expect(cells).toHaveLength(4);
    expect(page).toMatch(
      new RegExp(`${row} row: ${cells[0]} "Write docs" \\| ${cells[1]} "Ada" \\| ${cells[2]} "Todo"`),
    );
    const one = await outline({ target: row });
    expect(one.split('\n')).toEqual([
      'row',
      `  ${cells[0]} gridcell "Write docs"`,
      `  ${cells[1]} gridcell "Ada"`,
      `  ${cells[2]} gridcell "Todo"`,
      `  ${cells[3]} gridcell "3"`,
    ]);
  });

  it('one form_fill makes three inline edits by ref (text, select, number): the app keeps all three', async () => {
    const { tool, rows, outline } = await tasks();
    const page = await outline();
    const docs = rowRefs(page, 'Write docs').cells;
    const ship = rowRefs(page, 'Ship it').cells;
    const filled = await tool('form_fill', {
      fields: { [docs[0] ?? '']: 'Write better docs', [ship[2] ?? '']: 'Done', [ship[3] ?? '']: 13 },
    });
    expect(filled.notFilled).toBeUndefined();
    expect((filled.filled as unknown[]).length).toBe(3);
    const after = await rows();
    expect(after[0]).toMatchObject({ title: 'Write better docs', status: 'Todo', points: 3 });
    expect(after[2]).toMatchObject({ title: 'Ship it', status: 'Done', points: 13 });
  });

  it('Input.type and Input.select edit a cell by its ref', async () => {
    const { bridge, page, rows, outline } = await tasks();
    const cells = rowRefs(await outline(), 'Fix login').cells;
    expect(await exec(bridge, page, 'Input.type', { target: cells[1] ?? '', text: 'Margaret' })).toMatchObject({
      shows: 'Margaret',
    });
    expect(await exec(bridge, page, 'Input.select', { target: cells[2] ?? '', values: ['Done'] })).toMatchObject({
      value: 'Done',
      shows: 'Done',
    });
    expect((await rows())[1]).toMatchObject({ owner: 'Margaret', status: 'Done' });
  });

  it('a value the cell editor does not offer is NOT filled, with its options, and the row is left as it was', async () => {
    const { tool, rows, outline } = await tasks();
    const cells = rowRefs(await outline(), 'Deploy').cells;
    const filled = await tool('form_fill', { fields: { [cells[2] ?? '']: 'Blocked' } });
    expect(filled.notFilled).toEqual([expect.objectContaining({ options: ['Todo', 'Doing', 'Done'] })]);
    expect((await rows())[5]).toMatchObject({ status: 'Doing' });
  });
});
