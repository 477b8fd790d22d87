import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { resultText } from '../helpers/mcp.js';
import { drive } from './drive.js';
import { lineOf } from './human.js';
import { FORMS } from './forms.js';
import { fixtureSuite, heading } from './suite.js';

const world = fixtureSuite({
  name: 'mantine-app',
  title:
    'a Mantine 9 form (useForm: Select, MultiSelect, Autocomplete, DatePickerInput, NumberInput, Radio, Slider, Switch, Checkbox) on Vite',
  frameworks: ['React', 'Vite', 'Mantine'],
  fields: [
    ['Name', 'text'],
    ['Handle', 'text'],
    ['Country', 'combobox'],
    ['Skills', 'combobox'],
    ['City', 'combobox'],
    ['Start date', 'date'],
    ['Age', 'text'],
    ['Plan', 'radio'],
    ['Experience', 'slider'],
    ['Public profile', 'switch'],
    ['I accept the terms', 'checkbox'],
  ],
  ...FORMS['mantine-app'],
  sources: [
    heading(),
    {
      what: 'a Mantine Button',
      target: (tab) => tab.getByRole('button', { name: 'Count' }),
      file: 'src/App.tsx',
      marker: 'onClick={() => setClicks',
      // Mantine names its components after their package (React DevTools shows the same)
      component: '@mantine/core/Button',
    },
  ],
});

type Form = {
  fields: Array<{ label: string; type: string; value: unknown; name?: string }>;
  buttons: Array<{ label: string }>;
};

describe('Mantine widgets by their pattern', () => {
  it("self_ui shows the MultiSelect's pills as its value, the slider by the text above it, and no aria-hidden or generated parts", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const [form] = (await d.tool('self_ui')).forms as Form[];
    expect(form?.fields.find((f) => f.label === 'Skills')).toMatchObject({ type: 'combobox', value: ['React'] });
    expect(form?.fields.find((f) => f.label === 'Experience')).toMatchObject({ type: 'slider', value: '2' });
    // NumberInput's steppers and a pill's remove button are aria-hidden; the radio group's name is generated
    expect(form?.buttons.map((b) => b.label)).toEqual(['Save']);
    expect(form?.fields.find((f) => f.label === 'Plan')?.name).toBeUndefined();
  });

  it("one string replaces the MultiSelect's selection; a skill it does not offer is reported with the ones it has, and nothing is saved", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const missing = await d.tool('form_fill', { fields: { Skills: ['Svelte', 'Cobol'], Name: 'Ada' }, button: 'Save' });
    expect(missing.notFilled).toEqual([
      expect.objectContaining({
        field: 'Skills',
        shows: ['React'],
        reason: expect.stringMatching(/no option "Cobol"; options: "React", "Vue", "Svelte", "Angular", "Solid"/),
      }),
    ]);
    expect(missing.filled).toEqual([expect.objectContaining({ field: 'Name', value: 'Ada' })]);
    expect(missing.clicked).toBeUndefined();
    expect(await d.state()).toMatchObject({ saved: null });
    const one = await d.tool('form_fill', { fields: { Skills: 'Vue' }, button: 'Save' });
    expect(one.filled).toEqual([expect.objectContaining({ field: 'Skills', value: ['Vue'] })]);
    expect(await d.saved()).toMatchObject({ skills: ['Vue'] });
  });

  it('a slider value out of its range is not filled: the result says its range, the slider keeps its value, Save is not pressed', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Experience: 12 }, button: 'Save' });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({
        field: 'Experience',
        shows: '2',
        reason: expect.stringMatching(/goes from 0 to 10; 12 is outside/),
      }),
    ]);
    await d.tab.getByRole('button', { name: 'Save' }).click();
    expect(await d.saved()).toMatchObject({ experience: 2 });
  });

  it('the date picker takes a day written any way a person writes one, and back in time too', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { 'Start date': 'June 2, 2025' }, button: 'Save' });
    // what was not filled first, so a failure shows the reason the page gave
    expect(filled.notFilled ?? []).toEqual([]);
    expect(filled).toMatchObject({
      filled: [expect.objectContaining({ field: 'Start date', value: 'June 2, 2025' })],
    });
    expect(await d.saved()).toMatchObject({ start: '2025-06-02' });
    // eighteen months back, a month a click: on a loaded two-core machine this is slow work, not a hang
  }, 60_000);
});

describe('Mantine: the snapshot reads like the page', () => {
  it('no line for the wrappers that focus a control or the labels that name one; the radio group is one line named Plan', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    // the MultiSelect's pills field (a div with a mouse handler) and the Radio.Group's label div are not controls
    expect(outline).not.toMatch(/\be\d+ (div|span)\b/);
    expect(outline).toMatch(/\n {2}radiogroup "Plan"\n {4}e\d+ radio "Free" \[checked\]/);
    expect(outline).toMatch(/\be\d+ combobox "Skills"/);
    // NumberInput's steppers are aria-hidden: never listed
    expect(outline).not.toMatch(/button ""/);
  });
});

describe('Mantine: what an action raises', () => {
  it('a click whose handler throws says so in its own result, with the line written in availability.ts', async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    const result = await d.agent.callTool({
      name: 'page_exec',
      arguments: { pageId: d.page.pageId, cmd: 'Input.click', args: { target: 'text=Check availability' } },
    });
    const raised = (result.structuredContent as { result: { raised?: unknown } }).result.raised;
    expect(raised).toEqual([
      {
        kind: 'error',
        message: "TypeError: Cannot read properties of undefined (reading 'taken')",
        at: expect.stringMatching(
          new RegExp(
            `^${join(world().root, 'src/availability.ts')}:${lineOf(world().root, 'src/availability.ts', 'return !entry.taken')}:\\d+$`,
          ),
        ),
      },
    ]);
    // the first thing the agent reads of the click
    expect(resultText(result as CallToolResult).split('\n')[0]).toMatch(/^raised:/);
  });

  it("page_logs right after a person's click that threw already has the error: the page sends what it held first", async () => {
    const d = await drive(world());
    await d.tab.locator('#state').waitFor();
    await d.tab.getByRole('button', { name: 'Check availability' }).click();
    const logs = await d.tool('page_logs', { level: 'error' });
    expect(logs.entries).toEqual([
      expect.objectContaining({ uncaught: true, text: expect.stringContaining("reading 'taken'") }),
    ]);
  });
});
