import { beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { ensurePageAgentBuilt, refOf } from './harness.js';
import { openReactApp } from './vite-app.js';

beforeAll(() => ensurePageAgentBuilt());

interface Change {
  added: string[];
  removed: string[];
  changed: string[];
}

function changeOf(result: CallToolResult): Change | undefined {
  if (result.isError) throw new Error(`tool failed: ${resultText(result)}`);
  return (result.structuredContent as { outlineChange?: Change }).outlineChange;
}

describe('actions say what changed since the agent last looked', () => {
  it('Input.type, Input.click, form_fill and a same-document navigation on the React app report the outline change', async () => {
    const { bridge, app, tab } = await openReactApp();
    await tab.waitForSelector('h1');
    const agent = await connectAgent(bridge.url);
    const exec = (cmd: string, args: Record<string, unknown>) => callTool(agent, 'page_exec', { cmd, args });

    // no snapshot yet: nothing to compare with, so no change is reported
    const blind = await exec('Input.click', { target: 'text=Add task' });
    expect(changeOf(blind)).toBeUndefined();

    const outline = String((await callTool(agent, 'page_snapshot')).structuredContent?.outline);
    const draft = refOf(outline, 'textbox "New task"');

    const typed = await exec('Input.type', { target: draft, text: 'Buy milk' });
    expect(changeOf(typed)).toEqual({ added: [], removed: [], changed: [`${draft} textbox "New task" ="Buy milk"`] });
    expect(resultText(typed)).toContain(`~ ${draft} textbox "New task" ="Buy milk"`);

    const added = await exec('Input.click', { target: refOf(outline, 'button "Add task"') });
    if (process.env.SHOW) console.error(resultText(added));
    expect(changeOf(added)).toEqual({
      added: ['listitem "Buy milk"'],
      removed: [],
      changed: [`${draft} textbox "New task"`],
    });
    expect(resultText(added)).toContain('in list "Task list":\n+ listitem "Buy milk"');

    // the dialog opens: its lines arrive, the page behind it goes
    const opened = await exec('Input.click', { target: refOf(outline, 'div "Edit profile"') });
    if (process.env.SHOW) console.error(resultText(opened));
    const dialog = changeOf(opened);
    expect(dialog?.added[0]).toBe('dialog "Edit profile" [modal]');
    expect(dialog?.added).toEqual(expect.arrayContaining([expect.stringMatching(/^e\d+ button "Save"$/)]));
    expect(dialog?.removed).toEqual(expect.arrayContaining(['main', 'listitem "Buy milk"']));
    expect(resultText(opened)).not.toContain('listitem "Water the plants"'); // a removed run is one line and a count

    const saved = await callTool(agent, 'form_fill', { fields: { 'Full name': 'Ada Lovelace' }, button: 'Save' });
    if (process.env.SHOW) console.error(resultText(saved));
    await waitFor(async () => (await tab.textContent('#profile'))?.includes('Ada') ?? false, 5000, 'profile saved');
    const closed = changeOf(saved);
    expect(closed?.removed[0]).toBe('dialog "Edit profile" [modal]');
    expect(closed?.added).toContain('"Profile: Ada Lovelace <> as viewer"');

    // a same-document navigation: nothing on the page depends on the hash
    const moved = await exec('Page.navigate', { url: `${app.url}#elsewhere` });
    expect(changeOf(moved)).toEqual({ added: [], removed: [], changed: [] });
    expect(resultText(moved)).toContain('The outline did not change.');

    // a second agent has its own baseline: it never took a snapshot, so it gets no change
    const other = await connectAgent(bridge.url, { clientName: 'other-agent' });
    expect(
      changeOf(await callTool(other, 'page_exec', { cmd: 'Input.type', args: { target: draft, text: 'x' } })),
    ).toBe(undefined);
  });
});
