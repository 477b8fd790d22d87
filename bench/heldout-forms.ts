import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixture } from '../test/helpers/fixture-app.js';
import { connectMcp } from './agent.js';
import type { BenchRow } from './report.js';

/** A held-out case filled in one form_fill (test/fixtures-heldout): the page, what opens it, the fill, the state. */
interface HeldOutCase {
  name: string;
  page: string;
  /** a button pressed first (page_exec Input.click), as the agent opens a dialog */
  open?: string;
  fields: Record<string, string | number | boolean | string[]>;
  button: string;
  saved: Record<string, unknown>;
}

const CASES: HeldOutCase[] = [
  {
    name: 'Headless UI 2 Combobox with search',
    page: 'headless.html',
    fields: { Assignee: 'Therese Wunsch' },
    button: 'Save',
    saved: { assignee: 'Therese Wunsch' },
  },
  {
    name: 'Headless UI 2 Listbox multiple in a Dialog',
    page: 'headless.html',
    open: 'Choose reviewers',
    fields: { Reviewers: ['Kenton Towne', 'Katelyn Rohan'] },
    button: 'Save reviewers',
    saved: { reviewers: ['Kenton Towne', 'Katelyn Rohan'] },
  },
  {
    name: 'MUI X 9 DatePicker and TimePicker',
    page: 'muix.html',
    fields: { 'Start date': '2027-03-15', 'Start time': '14:30' },
    button: 'Save',
    saved: { start: '2027-03-15', time: '14:30' },
  },
  {
    name: 'MUI X 9 DatePicker in a Dialog',
    page: 'muix.html',
    open: 'Set due date',
    fields: { Due: '2027-04-01' },
    button: 'Save due date',
    saved: { due: '2027-04-01' },
  },
  {
    name: 'dnd-kit board: the add-card form',
    page: 'dnd.html',
    fields: { 'Card title': 'Deploy', Priority: 'High', Blocked: true },
    button: 'Add card',
    saved: { title: 'Deploy', priority: 'high', blocked: true },
  },
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The held-out React set's form cases as a new agent does them: (a click that opens the dialog,) one form_fill
 * with every field and the button. One row per case: the fields the app's own saved state holds as asked, the
 * calls, and the characters of every result's text.
 */
export async function heldOutFormsBench(notes: string[]): Promise<BenchRow[]> {
  const world = await startFixture('heldout-react');
  const rows: BenchRow[] = [];
  try {
    for (const c of CASES) {
      const tab = await world.open(c.page);
      const client = await connectMcp(world.bridge.url, `bench-heldout-${rows.length}`, 'streamable');
      try {
        await tab.waitForSelector('#state');
        let calls = 0;
        let chars = 0;
        const call = async (tool: string, args: Record<string, unknown>) => {
          const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
            timeout: 120_000,
          })) as CallToolResult;
          calls++;
          chars += result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n').length;
        };
        if (c.open) await call('page_exec', { cmd: 'Input.click', args: { target: `text=${c.open}` } });
        await call('form_fill', { fields: c.fields, button: c.button });
        await tab
          .waitForFunction(() => JSON.parse(document.querySelector('#state')?.textContent ?? '{}').saved, null, {
            timeout: 5000,
          })
          .catch(() => undefined);
        const state = JSON.parse((await tab.textContent('#state')) ?? 'null') as { saved?: Record<string, unknown> };
        const expected = Object.entries(c.saved);
        const right = expected.filter(([key, value]) => same(state.saved?.[key], value)).length;
        rows.push({
          group: 'held-out forms',
          name: `${c.name}: fields in the app's state after one form_fill`,
          value: right,
          unit: `of ${expected.length}`,
          target: `${expected.length}`,
          met: right === expected.length,
          note: `${calls} calls, ${chars.toLocaleString('en-US')} characters read`,
        });
      } finally {
        await client.close();
        await tab.close();
      }
    }
  } finally {
    await world.close();
  }
  notes.push(
    'held-out forms: the form cases of the held-out React set (test/fixtures-heldout, written from each library\'s docs after the page-agent changes of issue #39; its first run and fixes are under "Held-out set" below), one Vite server for all; a new agent presses the button that opens a dialog where there is one, then calls form_fill once. The grid, table and board cases are edits by ref and moves by key: test/fixtures-heldout/react.test.ts.',
  );
  return rows;
}
