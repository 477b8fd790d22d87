import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite } from './suite.js';

const world = fixtureSuite({
  name: 'angular-app',
  title:
    'Angular Material 21 (reactive form: input, select single and multiple, autocomplete, datepicker, radio, slider, toggle, checkbox) on Vite',
  frameworks: ['Angular', 'Vite', 'Angular Material'],
  fields: [
    ['Name', 'text'],
    ['Size', 'combobox'],
    ['Toppings', 'combobox'],
    ['City', 'combobox'],
    ['Arrival', 'date'],
    ['Plan', 'radio'],
    ['Guests', 'slider'],
    ['Breakfast', 'switch'],
    ['I accept the terms', 'checkbox'],
  ],
  ...FORMS['angular-app'],
  // Angular renders no source marks the page can read (no data-source, no owner stacks): the picker has no line
  sources: [],
});

describe('Angular Material: a select panel inside its host, a datepicker typed', () => {
  it("the multiple select reads as the person sees it, not with its open panel's options", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Toppings: ['Basil'] }, button: 'Book' });
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Toppings', value: 'Basil' })]);
    expect(await d.saved()).toMatchObject({ toppings: ['basil'] });
  });
});
