import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixture, type FixtureName } from '../test/helpers/fixture-app.js';
import { FORMS, type FixtureForm } from '../test/fixtures-matrix/forms.js';
import { connectMcp } from './agent.js';
import type { BenchRow } from './report.js';

/** The fixtures measured, with the library each is written with. */
const FIXTURES: Array<[FixtureName, string]> = [
  ['mantine-app', 'Mantine 9 (Vite)'],
  ['hook-form-app', 'react-select + react-hook-form + react-datepicker (Vite)'],
  ['next-app', 'Next.js 16 + react-select + react-datepicker (Turbopack)'],
  ['aria-app', 'React Aria Components (Vite)'],
  ['chakra-app', 'Chakra UI 3 (Vite)'],
  ['shadcn-app', 'shadcn/ui: Radix, cmdk, react-day-picker (Vite)'],
  ['antd-app', 'Ant Design 6 (Vite)'],
  ['radix-app', 'Radix Select + Headless UI (Vite)'],
  ['vue-app', 'Vue 3 (Vite)'],
  ['svelte-app', 'Svelte 5 (Vite)'],
  ['angular-app', 'Angular Material 21 (Vite, @analogjs/vite-plugin-angular)'],
];

/** Whether two saved values are the same (arrays, objects and scalars, as JSON). */
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Each fixture's whole form as a new agent fills it: self_ui to see the fields, then one form_fill with every
 * field and the button. One row per fixture: the fields the app's own saved state holds as asked, with the calls
 * and the characters of every result's text (what lands in the agent's context).
 */
async function measure(name: FixtureName, library: string, form: FixtureForm): Promise<BenchRow> {
  const world = await startFixture(name);
  try {
    const tab = await world.open();
    const client = await connectMcp(world.bridge.url, `bench-${name}`, 'streamable');
    try {
      await tab.waitForSelector('#state');
      let calls = 0;
      let chars = 0;
      const call = async (tool: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: 120_000,
        })) as CallToolResult;
        calls++;
        chars += result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n').length;
        if (result.isError) throw new Error(`${tool} failed on ${name}: ${JSON.stringify(result.content)}`);
      };
      const started = performance.now();
      await call('self_ui', {});
      await call('form_fill', form.fill);
      await tab
        .waitForFunction(() => JSON.parse(document.querySelector('#state')?.textContent ?? '{}').saved, null, {
          timeout: 5000,
        })
        .catch(() => undefined);
      const ms = Math.round(performance.now() - started);
      const state = JSON.parse((await tab.textContent('#state')) ?? 'null') as { saved?: Record<string, unknown> };
      const expected = Object.entries(form.saved);
      const right = expected.filter(([key, value]) => same(state.saved?.[key], value)).length;
      return {
        group: 'forms in one call',
        name: `${library}: fields in the app's state after self_ui + one form_fill`,
        value: right,
        unit: `of ${expected.length}`,
        target: `${expected.length} in ≤ 2 calls`,
        met: right === expected.length && calls <= 2,
        note: `${calls} calls, ${chars.toLocaleString('en-US')} characters read, ${ms.toLocaleString('en-US')} ms`,
      };
    } finally {
      await client.close();
    }
  } finally {
    await world.close();
  }
}

export async function fixtureFormsBench(notes: string[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [name, library] of FIXTURES) {
    const form = FORMS[name as keyof typeof FORMS];
    rows.push(await measure(name, library, form));
  }
  notes.push(
    'forms in one call: each fixture of test/fixtures (written the way its library\'s docs write a form) on its dev server; a new agent calls self_ui, then form_fill with every field and the button (the fill of test/fixtures-matrix/forms.ts); "fields" counts the values the app\'s own saved state holds as asked. Characters are the text content of both results.',
  );
  return rows;
}
