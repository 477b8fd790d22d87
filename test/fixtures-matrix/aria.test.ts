import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const world = fixtureSuite({
  name: 'aria-app',
  title:
    'React Aria Components (Select single and multiple, ComboBox, DatePicker, NumberField, RadioGroup, Slider, Switch, Checkbox) in a FormData form',
  frameworks: ['React', 'Vite', 'React Aria'],
  fields: [
    ['Name', 'text'],
    ['Favorite animal', 'combobox'],
    ['Toppings', 'combobox'],
    ['City', 'combobox'],
    ['Date', 'date'],
    ['Guests', 'text'],
    ['Size', 'radio'],
    ['Volume', 'slider'],
    ['Notify me', 'switch'],
    ['I accept the terms', 'checkbox'],
  ],
  ...FORMS['aria-app'],
  // the date picker's calendar is a dialog in a popover
  openDialog: (tab) => tab.getByRole('group', { name: 'Date' }).getByRole('button').click(),
  sources: [
    heading(),
    {
      what: 'a React Aria Button',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: 'src/App.tsx',
      marker: 'onPress={() => setClicks',
      component: 'Button',
    },
  ],
});

describe('React Aria: a date field of segments, a Select that names itself after its value', () => {
  it('self_ui names the Select by its label only (its value is its value), and shows the date field as one field', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const [form] = (await d.tool('self_ui')).forms as Array<{ fields: Array<{ label: string; value: unknown }> }>;
    expect(form?.fields.find((f) => f.label === 'Toppings')?.value).toEqual(['Cheese']);
    expect(form?.fields.find((f) => f.label === 'Date')?.value).toBe('');
    expect(form?.fields.filter((f) => f.label === 'City')).toHaveLength(1);
  });

  it('a day the calendar has to page back to is picked and the form submits it', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Date: '2026-02-28' }, button: 'Book' });
    expect(filled.notFilled).toBeUndefined();
    expect(await d.saved()).toMatchObject({ date: '2026-02-28' });
  });
});
