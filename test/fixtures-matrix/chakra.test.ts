import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const world = fixtureSuite({
  name: 'chakra-app',
  title:
    'Chakra UI 3 with react-hook-form (Select single and multiple, DatePicker, NumberInput, RadioGroup, Slider, Switch, Checkbox)',
  frameworks: ['React', 'Vite'],
  fields: [
    ['Name', 'text'],
    ['Framework', 'combobox'],
    ['Languages', 'combobox'],
    ['Start date', 'date'],
    ['Seats', 'spinbutton'],
    ['Tier', 'radio'],
    ['Level', 'slider'],
    ['Newsletter', 'checkbox'],
    ['I accept the terms', 'checkbox'],
  ],
  ...FORMS['chakra-app'],
  sources: [heading()],
});

describe('Chakra UI: a date typed into its DatePicker.Input', () => {
  it('a day the input does not take as typed is picked in its calendar instead', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { 'Start date': '15 January 2027' }, button: 'Sign up' });
    expect(filled.notFilled).toBeUndefined();
    expect(await d.saved()).toMatchObject({ start: '2027-01-15' });
  });

  it("a number field's steppers are not among the form's buttons", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const [form] = (await d.tool('self_ui')).forms as Array<{ buttons: Array<{ label: string }> }>;
    expect(form?.buttons.map((b) => b.label)).toEqual(['Open calendar', 'Sign up']);
  });
});
