import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const world = fixtureSuite({
  name: 'shadcn-app',
  title:
    'shadcn/ui (Radix Select, RadioGroup, Slider, Switch, Checkbox, a cmdk Combobox and a react-day-picker date picker)',
  frameworks: ['React', 'Vite', 'Radix UI', 'shadcn/ui'],
  fields: [
    ['Username', 'text'],
    ['Email', 'combobox'],
    ['Language', 'combobox'],
    ['Date of birth', 'date'],
    ['Notify me about...', 'radio'],
    ['Volume', 'slider'],
    ['Marketing emails', 'switch'],
    ['Accept terms and conditions', 'checkbox'],
  ],
  ...FORMS['shadcn-app'],
  sources: [
    heading(),
    {
      what: 'the shadcn Button (written in components/ui/button.tsx, used in App.tsx)',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: 'src/components/ui/button.tsx',
      marker: '<Comp data-slot="button"',
      component: 'Button',
    },
  ],
});

describe('shadcn/ui: a date the calendar disables, a volume off its steps', () => {
  it('a birthday in the future is not filled: the calendar disables it, and nothing is saved', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { 'Date of birth': '2099-01-01' }, button: 'Update profile' });
    expect(filled.notFilled).toEqual([expect.objectContaining({ field: 'Date of birth', shows: '' })]);
    expect(await d.state()).toMatchObject({ saved: null });
  });

  it("a volume between the slider's steps is not filled and names the step", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Volume: 35 } });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({ field: 'Volume', reason: expect.stringMatching(/steps of 10: 35 is not one/) }),
    ]);
  });
});
