import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { ensurePageAgentBuilt } from '../page/harness.js';
import { drive, type Driver } from '../fixtures-matrix/drive.js';

/**
 * The held-out Vue set (LIST.md rows 6–8): apps written from Vuetify's, PrimeVue's and Element Plus's own docs,
 * one Vite dev server and one browser for all of them. Each test is what a new agent would do: one form_fill with
 * every field, judged by the app's own state after its submit.
 */
let world: FixtureWorld;
beforeAll(async () => {
  ensurePageAgentBuilt();
  world = await startFixture('heldout-vue');
}, 150_000);
afterAll(() => world?.close());

async function saved(d: Driver): Promise<unknown> {
  await d.saved();
  return ((await d.state()) as { saved: unknown }).saved;
}

async function dialogNoLarger(d: Driver): Promise<void> {
  await d.tab.locator('[role=dialog]').first().waitFor();
  const outline = String((await d.tool('page_snapshot')).outline);
  const aria = await d.tab.locator('body').ariaSnapshot();
  if (process.env.SHOW) console.error(`${outline}\n---\n${aria}\n${outline.length} vs ${aria.length}`);
  expect(outline.length).toBeLessThanOrEqual(aria.length);
}

describe('Vuetify 4: v-form with v-select, v-autocomplete multiple chips, v-checkbox, v-slider; a v-dialog', () => {
  it('one form_fill fills the form and the app saves every value', async () => {
    const d = await drive(world, 'vuetify.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: { Size: 'Medium', Toppings: ['Mushrooms', 'Olives'], 'Gift wrap': true, Quantity: 4 },
      button: 'Save',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ size: 'Medium', toppings: ['Mushrooms', 'Olives'], gift: true, quantity: 4 });
  });

  it('in the v-dialog, one form_fill fills the select, the multiple autocomplete and the checkbox', async () => {
    const d = await drive(world, 'vuetify.html');
    await d.exec('Input.click', { target: 'text=Edit delivery' });
    await dialogNoLarger(d);
    const filled = await d.tool('form_fill', {
      fields: { 'Time slot': 'Evening', Days: ['Tuesday', 'Friday'], Contactless: true },
      button: 'Save delivery',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ slot: 'Evening', days: ['Tuesday', 'Friday'], contactless: true });
  });
});

describe('PrimeVue 5: Select, MultiSelect with filter, AutoComplete, DatePicker, InputNumber, ToggleSwitch; a Dialog', () => {
  it('one form_fill fills the form and the app saves every value', async () => {
    const d = await drive(world, 'primevue.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: {
        City: 'Rome',
        Visited: ['London', 'Paris'],
        Country: 'Germany',
        Date: '2027-03-15',
        Guests: 3,
        Newsletter: true,
      },
      button: 'Save',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({
      city: 'Rome',
      visited: ['London', 'Paris'],
      country: 'Germany',
      date: '2027-03-15',
      guests: 3,
      newsletter: true,
    });
  });

  it('in the Dialog, one form_fill fills the Select and the MultiSelect', async () => {
    const d = await drive(world, 'primevue.html');
    await d.exec('Input.click', { target: 'text=Edit profile' });
    await dialogNoLarger(d);
    const filled = await d.tool('form_fill', {
      fields: { 'Home city': 'Istanbul', 'Favourite cities': ['New York', 'Rome'] },
      button: 'Save profile',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ home: 'Istanbul', favourites: ['New York', 'Rome'] });
  });
});

describe('Element Plus 2: el-form with filterable and multiple el-select, date, switch, radios, number; el-dialog', () => {
  it('one form_fill fills the form and the app saves every value', async () => {
    const d = await drive(world, 'element.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', {
      fields: {
        'Activity zone': 'Zone two',
        'Activity time': '2027-03-15',
        'Instant delivery': true,
        'Activity type': ['Online activities', 'Offline activities'],
        Resources: 'Venue',
        Guests: 4,
      },
      button: 'Create',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({
      region: 'beijing',
      date: '2027-03-15',
      delivery: true,
      type: ['Online activities', 'Offline activities'],
      resource: 'Venue',
      num: 4,
    });
  });

  it('in the el-dialog, one form_fill fills the input and the remote multiple select (async options)', async () => {
    const d = await drive(world, 'element.html');
    await d.exec('Input.click', { target: 'text=Open a Form nested Dialog' });
    await dialogNoLarger(d);
    const filled = await d.tool('form_fill', {
      fields: { 'Promotion name': 'Spring', States: ['label:Texas', 'label:Ohio'] },
      button: 'Confirm',
    });
    expect(filled.notFilled).toBeUndefined();
    expect(await saved(d)).toEqual({ name: 'Spring', states: ['value:Texas', 'value:Ohio'] });
  });
});
