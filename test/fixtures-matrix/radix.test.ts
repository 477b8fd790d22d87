import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS } from './forms.js';
import { fixtureSuite } from './suite.js';

const world = fixtureSuite({
  name: 'radix-app',
  title: 'Radix UI Select and Headless UI Listbox in a React form on a Vite dev server',
  frameworks: ['React', 'Vite'],
  fields: [
    ['Name', 'text'],
    ['Role', 'combobox'],
    ['Team', 'combobox'],
    ['Notify me', 'checkbox'],
  ],
  ...FORMS['radix-app'],
  sources: [
    {
      what: 'a plain tag (the React component that renders it is its owner)',
      target: (tab) => tab.locator('h1'),
      file: 'src/App.tsx',
      marker: '<h1>',
      component: 'App',
    },
    {
      what: 'the Radix trigger',
      target: (tab) => tab.getByRole('combobox', { name: 'Role' }),
      file: 'src/App.tsx',
      marker: '<Select.Trigger',
      component: 'SelectTrigger',
    },
  ],
});

describe('Headless UI Listbox (a button with aria-haspopup=listbox)', () => {
  it('the snapshot shows it as a combobox named by its label with the value it shows; self_ui lists it the same way', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    expect(outline).toMatch(/\be\d+ combobox "Team" ="Core"/);
    const ui = await d.tool('self_ui');
    const [form] = ui.forms as Array<{
      fields: Array<{ label: string; type: string; value: unknown }>;
      buttons: unknown[];
    }>;
    expect(form?.fields.find((f) => f.label === 'Team')).toMatchObject({ type: 'combobox', value: 'Core' });
    // the trigger is a field, not one of the form's buttons
    expect(JSON.stringify(form?.buttons)).not.toContain('Core');
  });

  it('form_fill picks the option by its visible text and the app keeps its id in its state', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Team: 'Platform' }, button: 'Save' });
    expect(filled.notFilled).toBeUndefined();
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Team', value: 'Platform' })]);
    await d.saved();
    expect(await d.state()).toMatchObject({ saved: { team: 'platform' } });
  });

  it('a team the Listbox does not offer is not filled: the result names the options it has, and nothing is saved', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Team: 'Marketing' }, button: 'Save' });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({
        field: 'Team',
        wanted: 'Marketing',
        shows: 'Core',
        reason: expect.stringMatching(/no option "Marketing"; options: "Core", "Growth", "Platform"/),
      }),
    ]);
    expect(filled.clicked).toBeUndefined();
    await d.tab.getByRole('button', { name: 'Save' }).click();
    await d.saved();
    expect(await d.state()).toMatchObject({ saved: { team: 'core' } });
  });
});
