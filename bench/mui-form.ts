import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startFixture } from '../test/helpers/fixture-app.js';
import { connectMcp } from './agent.js';
import { round, type BenchRow } from './report.js';

const FIELDS = { Name: 'Ada Lovelace', Email: 'ada@example.com', Role: 'Editor', Newsletter: true, City: 'Lisbon' };
const SAVED = { name: 'Ada Lovelace', email: 'ada@example.com', role: 'editor', newsletter: true, city: 'Lisbon' };

/**
 * The MUI dialog task of issue 17 as an agent does it: open the dialog, see its fields, fill the five (TextField
 * ×2, Select, Checkbox, Autocomplete) and save. Counts the tool calls and the characters of every result's text
 * (what lands in the agent's context), and checks the app's own state afterwards.
 */
export async function muiFormBench(notes: string[]): Promise<BenchRow[]> {
  const world = await startFixture('mui-app');
  try {
    const tab = await world.open();
    const client = await connectMcp(world.bridge.url, 'bench-mui', 'streamable');
    try {
      await tab.waitForSelector('#state');
      let calls = 0;
      let chars = 0;
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        calls++;
        chars += result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n').length;
        if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
      };
      const started = performance.now();
      await call('page_exec', { cmd: 'Input.click', args: { target: 'text=Edit profile' } });
      await call('self_ui', {});
      await call('form_fill', { fields: FIELDS, button: 'Save' });
      const ms = performance.now() - started;
      const state = JSON.parse((await tab.textContent('#state')) ?? 'null') as { saved?: Record<string, unknown> };
      const kept = Object.entries(SAVED).filter(([key, value]) => state.saved?.[key] === value).length;
      notes.push(
        'mui-form: the MUI fixture (test/fixtures/mui-app) on a Vite dev server; page_exec Input.click "text=Edit profile", self_ui, form_fill with the five fields and button "Save"; characters are the text content of the three results.',
      );
      return [
        {
          group: 'MUI dialog',
          name: 'tool calls to open, fill five fields and save',
          value: calls,
          unit: 'calls',
          target: '≤ 3',
          met: calls <= 3,
        },
        {
          group: 'MUI dialog',
          name: 'characters read by the agent',
          value: chars,
          unit: 'chars',
          target: '≤ 1,500',
          met: chars <= 1500,
        },
        {
          group: 'MUI dialog',
          name: "values in the app's state afterwards",
          value: kept,
          unit: 'of 5',
          target: '5',
          met: kept === 5,
        },
        { group: 'MUI dialog', name: 'wall time of the three calls', value: round(ms, 0), unit: 'ms' },
      ];
    } finally {
      await client.close();
    }
  } finally {
    await world.close();
  }
}
