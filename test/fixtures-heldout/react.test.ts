import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive, refOn, type Driver } from '../fixtures-matrix/drive.js';

/**
 * The held-out React set (LIST.md): apps written from each library's own docs after the page agent's changes for
 * issue #39, one Vite dev server and one browser for all of them. Each test is what a new agent would do: one
 * form_fill with every field (or the edits by ref), judged by the app's own state.
 */
let world: FixtureWorld;
beforeAll(async () => {
  ensurePageAgentBuilt();
  world = await startFixture('heldout-react');
}, 150_000);
afterAll(() => world?.close());

async function saved(d: Driver): Promise<unknown> {
  await d.saved();
  return ((await d.state()) as { saved: unknown }).saved;
}

/** What the grid or board shows as its state (no `saved` key). */
async function state<T>(d: Driver): Promise<T> {
  return (await d.state()) as T;
}

/** The ref just before `"text"` on the line that also has `"row"` (a grid row is one line, each cell its ref). */
function cellRef(outline: string, row: string, text: string): string {
  const line = outline.split('\n').find((l) => l.includes(`"${row}"`)) ?? '';
  const ref = new RegExp(`\\b(e\\d+) (?:[a-z]+ )?"${text}"`).exec(line)?.[1];
  if (!ref) throw new Error(`no ref before "${text}" on the line of "${row}" in:\n${outline}`);
  return ref;
}

async function dialogNoLarger(d: Driver): Promise<void> {
  await d.tab.locator('[role=dialog]').first().waitFor();
  const outline = String((await d.tool('page_snapshot')).outline);
  const aria = await d.tab.locator('body').ariaSnapshot();
  if (process.env.SHOW) console.error(`${outline}\n---\n${aria}\n${outline.length} vs ${aria.length}`);
  expect(outline.length).toBeLessThanOrEqual(aria.length);
}

describe('Headless UI 2: a Combobox with search, a Listbox multiple in a Dialog', () => {
  it('one form_fill chooses the assignee in the Combobox and saves it', async () => {
    const d = await drive(world, 'headless.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Assignee: 'Therese Wunsch' }, button: 'Save' });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ assignee: 'Therese Wunsch' });
  });

  it('in the Dialog, one form_fill makes the Listbox hold exactly the reviewers asked for', async () => {
    const d = await drive(world, 'headless.html');
    await d.exec('Input.click', { target: 'text=Choose reviewers' });
    await dialogNoLarger(d);
    const filled = await d.tool('form_fill', {
      fields: { Reviewers: ['Kenton Towne', 'Katelyn Rohan'] },
      button: 'Save reviewers',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ reviewers: ['Kenton Towne', 'Katelyn Rohan'] });
  });
});

describe('MUI X Date Pickers 9: DatePicker and TimePicker in a form, a DatePicker in a Dialog', () => {
  it('one form_fill sets the date and the time, and the app saves both', async () => {
    const d = await drive(world, 'muix.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: { 'Start date': '2027-03-15', 'Start time': '14:30' },
      button: 'Save',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ start: '2027-03-15', time: '14:30' });
  });

  it('in the Dialog, one form_fill sets the due date', async () => {
    const d = await drive(world, 'muix.html');
    await d.exec('Input.click', { target: 'text=Set due date' });
    await dialogNoLarger(d);
    const filled = await d.tool('form_fill', { fields: { Due: '2027-04-01' }, button: 'Save due date' });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ due: '2027-04-01' });
  });
});

interface Car {
  make: string;
  model: string;
  price: number;
  color: string;
}

describe('AG Grid 36 Community: cells edited in place, rows selected, a quick filter', () => {
  it('cells have refs, and one form_fill makes three inline edits by ref (text, number, select)', async () => {
    const d = await drive(world, 'aggrid.html');
    await d.tab.locator('.ag-cell').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const make = cellRef(outline, 'Model Y', 'Tesla');
    const price = cellRef(outline, 'F-Series', '33850');
    const color = cellRef(outline, 'Corolla', 'Green');
    const filled = await d.tool('form_fill', { fields: { [make]: 'Rivian', [price]: 41000, [color]: 'Blue' } });
    expect(filled.notFilled).toBeUndefined();
    const { rows } = await state<{ rows: Car[] }>(d);
    expect(rows[0]).toMatchObject({ make: 'Rivian', model: 'Model Y' });
    expect(rows[1]).toMatchObject({ model: 'F-Series', price: 41000 });
    expect(rows[2]).toMatchObject({ model: 'Corolla', color: 'Blue' });
  });

  it('the quick filter by form_fill, then a row selected by its checkbox ref', async () => {
    const d = await drive(world, 'aggrid.html');
    await d.tab.locator('.ag-cell').first().waitFor();
    const filled = await d.tool('form_fill', { fields: { 'Quick filter': 'Ford' } });
    expect(filled.notFilled).toBeUndefined();
    await d.tab.locator('.ag-row', { hasText: 'Tesla' }).waitFor({ state: 'detached' });
    const outline = String((await d.tool('page_snapshot')).outline);
    const row = outline.split('\n').find((l) => l.includes('"F-Series"')) ?? '';
    const box = /\b(e\d+) checkbox/.exec(row)?.[1];
    expect(box, outline).toBeDefined();
    await d.exec('Input.check', { target: box ?? '' });
    expect((await state<{ selected: string[] }>(d)).selected).toEqual(['F-Series']);
  });
});

describe('TanStack Table 9: the editable-data example', () => {
  it('one form_fill sets inputs in cells by ref; the table keeps them once they lose focus', async () => {
    const d = await drive(world, 'tanstack.html');
    await d.tab.locator('table input').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const first = refOn(outline, '="tanner"');
    const age = refOn(outline, '="40"');
    const filled = await d.tool('form_fill', { fields: { [first]: 'Ada', [age]: 41 } });
    expect(filled.notFilled).toBeUndefined();
    const { data } = await state<{ data: Array<Record<string, unknown>> }>(d);
    expect(data[0]).toMatchObject({ firstName: 'Ada' });
    expect(data[1]).toMatchObject({ age: 41 });
  });
});

describe('dnd-kit: a sortable board moved by keyboard, an "add card" form beside it', () => {
  it('a card moved down one place with the keyboard sensor (Space, ArrowDown, Space) by its ref', async () => {
    const d = await drive(world, 'dnd.html');
    await d.tab.locator('#state').waitFor();
    const card = refOn(String((await d.tool('page_snapshot')).outline), '"Write spec"');
    for (const key of [' ', 'ArrowDown', ' ']) await d.exec('Input.press', { target: card, key });
    await expect
      .poll(async () => (await state<{ items: string[] }>(d)).items)
      .toEqual(['Build API', 'Write spec', 'Test', 'Release']);
  });

  it('one form_fill fills the add-card form and adds the card', async () => {
    const d = await drive(world, 'dnd.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: { 'Card title': 'Deploy', Priority: 'High', Blocked: true },
      button: 'Add card',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ title: 'Deploy', priority: 'high', blocked: true });
  });
});
