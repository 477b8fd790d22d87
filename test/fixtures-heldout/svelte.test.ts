import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive, type Driver } from '../fixtures-matrix/drive.js';

/**
 * The held-out Svelte set (LIST.md row 9): an app written from Bits UI's own docs, on one Vite dev server and one
 * browser. Each test is what a new agent would do: one form_fill with every field, judged by the app's own state.
 */
let world: FixtureWorld;
beforeAll(async () => {
  ensurePageAgentBuilt();
  world = await startFixture('heldout-svelte');
}, 150_000);
afterAll(() => world?.close());

async function saved(d: Driver): Promise<unknown> {
  await d.saved();
  return ((await d.state()) as { saved: unknown }).saved;
}

describe('Bits UI 2: Select, Combobox with search, segmented DatePicker, Checkbox; a multiple Select in a Dialog', () => {
  it('one form_fill fills the form and the app saves every value', async () => {
    const d = await drive(world, 'bits.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: {
        Theme: 'Dark Green',
        'Search a fruit': 'Pineapple',
        Birthday: '1990-07-14',
        'Accept terms and conditions': true,
      },
      button: 'Save',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ theme: 'dark-green', fruit: 'pineapple', birthday: '1990-07-14', terms: true });
  });

  it('in the Dialog, one form_fill makes the multiple Select hold exactly the themes asked for', async () => {
    const d = await drive(world, 'bits.html');
    await d.exec('Input.click', { target: 'text=Edit settings' });
    await d.tab.locator('[role=dialog]').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const aria = await d.tab.locator('body').ariaSnapshot();
    expect(outline.length).toBeLessThanOrEqual(aria.length);
    const filled = await d.tool('form_fill', {
      fields: { 'Followed themes': ['Punk Pink', 'Ocean Blue'], 'Notify me': true },
      button: 'Save settings',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ tags: ['punk-pink', 'ocean-blue'], notify: true });
  });
});
