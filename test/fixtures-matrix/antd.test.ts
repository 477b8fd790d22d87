import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite } from './suite.js';

const world = fixtureSuite({
  name: 'antd-app',
  title: 'Ant Design Form (Input, Select, multiple Select, Radio.Group, Checkbox, Switch) on a Vite dev server',
  frameworks: ['React', 'Vite'],
  fields: [
    ['Customer', 'text'],
    ['Size', 'combobox'],
    ['Toppings', 'combobox'],
    ['Shipping', 'radio'],
    ['Gift wrap', 'checkbox'],
    ['Express', 'switch'],
  ],
  ...FORMS['antd-app'],
  sources: [
    {
      what: 'a plain tag (the React component that renders it is its owner)',
      target: (tab) => tab.locator('h1'),
      file: 'src/App.tsx',
      marker: '<h1>',
      component: 'App',
    },
    {
      what: 'an antd Button',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: 'src/App.tsx',
      marker: '<Button onClick',
      component: 'Button',
    },
  ],
});

describe('Ant Design Select mode="multiple"', () => {
  it('self_ui shows the values it holds as a list', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const ui = await d.tool('self_ui');
    const [form] = ui.forms as Array<{ fields: Array<{ label: string; value: unknown }> }>;
    expect(form?.fields.find((f) => f.label === 'Toppings')?.value).toEqual(['Cheese']);
  });

  it('one string means that one value: it replaces what the Select held', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Toppings: 'Mushrooms' }, button: 'Place order' });
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Toppings', value: ['Mushrooms'] })]);
    expect(await d.saved()).toMatchObject({ toppings: ['mushrooms'] });
  });

  it('an option it does not offer is not filled: the Select keeps what it held and the result says what it shows', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Toppings: ['Olives', 'Anchovies'] }, button: 'Place order' });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({
        field: 'Toppings',
        wanted: ['Olives', 'Anchovies'],
        shows: ['Cheese'],
        reason: expect.stringMatching(/no option "Anchovies"; options: "Cheese", "Olives", "Basil", "Mushrooms"/),
      }),
    ]);
    expect(filled.clicked).toBeUndefined();
    expect(await d.state()).toMatchObject({ saved: null });
    await d.tab.getByRole('button', { name: 'Place order' }).click();
    expect(await d.saved()).toMatchObject({ toppings: ['cheese'] });
  });
});
