import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive, refOn, type Driver } from '../fixtures-matrix/drive.js';

/**
 * The held-out Angular set (LIST.md row 11): Angular Material configurations the matrix does not have, written from
 * its docs' examples (a MatDialog with "Chips Autocomplete" and a multiple mat-select; a mat-table whose cells hold
 * inputs), on one Vite dev server and one browser. Judged by the app's own state.
 */
let world: FixtureWorld;
beforeAll(async () => {
  ensurePageAgentBuilt();
  world = await startFixture('heldout-angular');
}, 150_000);
afterAll(() => world?.close());

interface State {
  saved: { fruits: string[]; toppings: string[] } | null;
  rows: Array<{ name: string; weight: number; symbol: string }>;
}
const state = async (d: Driver) => (await d.state()) as State;

describe('Angular Material 21: a MatDialog with chips + autocomplete and a multiple select; a mat-table edited in place', () => {
  it('in the MatDialog, one form_fill makes the chips and the multiple select hold exactly what was asked', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit tags' });
    await d.tab.locator('[role=dialog]').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const aria = await d.tab.locator('body').ariaSnapshot();
    expect(outline.length).toBeLessThanOrEqual(aria.length);
    const filled = await d.tool('form_fill', {
      fields: { 'Favorite Fruits': ['Apple', 'Orange'], Toppings: ['Mushroom', 'Onion'] },
      button: 'Save tags',
    });
    expect(filled.notFilled).toBeUndefined();
    await d.saved();
    expect((await state(d)).saved).toEqual({ fruits: ['Apple', 'Orange'], toppings: ['Mushroom', 'Onion'] });
  });

  it('one form_fill edits two table cells by ref, and the table holds both', async () => {
    const d = await drive(world);
    await d.tab.locator('#state').waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const weight = refOn(outline, '="4.0026"');
    const symbol = refOn(outline, '="Li"');
    const filled = await d.tool('form_fill', { fields: { [weight]: 4.1, [symbol]: 'Lx' } });
    expect(filled.notFilled).toBeUndefined();
    const { rows } = await state(d);
    expect(rows[1]).toMatchObject({ name: 'Helium', weight: 4.1 });
    expect(rows[2]).toMatchObject({ name: 'Lithium', symbol: 'Lx' });
  });
});
