import { describe, expect, it } from 'vitest';
import { drive } from './drive.js';
import { FORMS, TRIP_FIELDS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const world = fixtureSuite({
  name: 'hook-form-app',
  title: 'react-hook-form with react-select (single and multi), react-datepicker and a range input, on Vite',
  frameworks: ['React', 'Vite'],
  fields: TRIP_FIELDS,
  ...FORMS['hook-form-app'],
  sources: [heading()],
});

describe('react-select keeps its input empty and shows its values beside it', () => {
  it('self_ui reads the values a person sees: the single value beside the box, the multi-values as a list', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    await d.tool('form_fill', { fields: { Country: 'Brazil' } });
    const [form] = (await d.tool('self_ui')).forms as Array<{
      fields: Array<{ label: string; value: unknown }>;
      buttons: Array<{ label: string }>;
    }>;
    expect(form?.fields.find((f) => f.label === 'Country')?.value).toBe('Brazil');
    expect(form?.fields.find((f) => f.label === 'Languages')?.value).toEqual(['Rust']);
    // a value's remove control is part of the select, not one of the form's buttons
    expect(form?.buttons.map((b) => b.label)).toEqual(['Book']);
  });

  it("a list without a value held removes it with the value's own remove control; the app keeps exactly the list", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Languages: ['Python'] }, button: 'Book' });
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Languages', value: ['Python'] })]);
    expect(await d.saved()).toMatchObject({ languages: ['py'] });
  });

  it("a budget between the range's steps is not filled: the result names the step, and Book is not pressed", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Budget: 73, Traveller: 'Ada' }, button: 'Book' });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({ field: 'Budget', reason: expect.stringMatching(/steps of 5: 73 is not one/) }),
    ]);
    expect(filled.clicked).toBeUndefined();
    expect(await d.state()).toMatchObject({ saved: null });
  });
});
