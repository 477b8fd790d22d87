import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type FixtureWorld } from '../helpers/fixture-app.js';
import { waitFor } from '../helpers/wait.js';
import { resultText } from '../helpers/mcp.js';
import { connectedPage, ensurePageAgentBuilt } from '../page/harness.js';
import { drive, frameJoined, refOn } from './drive.js';
import { altClick, lineOf, pickWithMouse } from './human.js';

let world: FixtureWorld;
beforeAll(async () => {
  ensurePageAgentBuilt();
  world = await startFixture('mui-app');
}, 150_000); // Vite bundles MUI on the first load
afterAll(() => world?.close());

const FIVE = { Name: 'Ada Lovelace', Email: 'ada@example.com', Role: 'Editor', Newsletter: true, City: 'Lisbon' };
const SAVED = { name: 'Ada Lovelace', email: 'ada@example.com', role: 'editor', newsletter: true, city: 'Lisbon' };

describe('MUI (Dialog, TextField, Select, Checkbox, Autocomplete) on a Vite dev server', () => {
  it('opening the dialog, filling its five fields and saving takes 3 tool calls and under 1,500 characters read; the app keeps all five', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const ui = await d.tool('self_ui');
    const [dialog] = ui.dialogs as Array<{ fields: Array<{ label: string; type: string }> }>;
    expect(dialog?.fields.map((f) => f.label)).toEqual(['Name', 'Email', 'Role', 'Newsletter', 'City']);
    const filled = await d.tool('form_fill', { fields: FIVE, button: 'Save' });
    expect(filled.notFilled).toBeUndefined();
    expect(filled.dialogOpen).toBe(false);
    expect(await d.state()).toEqual({ saved: SAVED, clicks: 0 });
    expect(d.calls).toBe(3);
    expect(d.chars).toBeLessThanOrEqual(1500);
  });

  it('self_ui shows the Select as a combobox labelled Role with the value the app shows, never its aria-hidden input', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const ui = await d.tool('self_ui');
    const [dialog] = ui.dialogs as Array<{ fields: Array<{ label: string; type: string; value: unknown }> }>;
    expect(dialog?.fields.find((f) => f.label === 'Role')).toMatchObject({ type: 'combobox', value: 'Viewer' });
    expect(dialog?.fields.find((f) => f.label === 'City')).toMatchObject({ type: 'combobox', value: '' });
    expect(dialog?.fields.some((f) => f.value === 'viewer' || f.label === 'Viewer')).toBe(false);
    const snap = await d.tool('page_snapshot');
    expect(snap.frameworks).toEqual(expect.arrayContaining(['React', 'Vite']));
    expect(String(snap.outline)).toMatch(/e\d+ combobox "Role" ="Viewer"|e\d+ combobox "Role"/);
  });

  it('a City the Autocomplete does not offer is reported as not filled with what the app shows, and Save is not pressed', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const result = await d.agent.callTool({
      name: 'form_fill',
      arguments: { pageId: d.page.pageId, fields: { Name: 'Grace', City: 'Tokyo' }, button: 'Save' },
    });
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    expect(text.split('\n')[0]).toMatch(/^NOT filled: "City" \(wanted "Tokyo", the app shows ""/);
    const structured = result.structuredContent as Record<string, unknown>;
    expect(structured.notFilled).toEqual([expect.objectContaining({ field: 'City', wanted: 'Tokyo', shows: '' })]);
    expect(structured.filled).toEqual([expect.objectContaining({ field: 'Name', value: 'Grace' })]);
    expect(structured.clicked).toBeUndefined();
    expect(await d.state()).toEqual({ saved: null, clicks: 0 });
    expect(await d.tab.isVisible('[role=dialog]')).toBe(true);
  });

  it('a Role the Select does not offer fails the field with the options it has, and nothing is saved', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const structured = await d.tool('form_fill', { fields: { Role: 'Owner' }, button: 'Save' });
    expect(structured.notFilled).toEqual([
      expect.objectContaining({
        field: 'Role',
        shows: 'Viewer',
        reason: expect.stringMatching(/"Viewer", "Editor", "Admin"/),
      }),
    ]);
    expect(await d.state()).toEqual({ saved: null, clicks: 0 });
  });

  it('page_exec Input.select and Input.type choose options of the Select and the Autocomplete by their refs', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const outline = String((await d.tool('page_snapshot')).outline);
    const role = await d.exec('Input.select', { target: refOn(outline, 'combobox "Role"'), values: ['Admin'] });
    expect(role).toMatchObject({ selected: ['Admin'], shows: 'Admin' });
    await d.exec('Input.type', { target: refOn(outline, 'combobox "City"'), text: 'Paris' });
    await d.exec('Input.click', { target: 'text=Save' });
    await waitFor(async () => JSON.stringify(await d.state()).includes('Paris'), 5000, 'saved');
    expect(await d.state()).toMatchObject({ saved: { role: 'admin', city: 'Paris' } });
  });

  it('Input.select of a city the Autocomplete does not offer fails and leaves the city it held', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const outline = String((await d.tool('page_snapshot')).outline);
    const city = refOn(outline, 'combobox "City"');
    expect(await d.exec('Input.select', { target: city, values: ['Paris'] })).toMatchObject({ shows: 'Paris' });
    const failed = await d.toolError('page_exec', {
      cmd: 'Input.select',
      args: { target: city, values: ['Atlantis'] },
    });
    expect(failed).toMatch(/offers no option "Atlantis"/);
    await d.exec('Input.click', { target: 'text=Save' });
    await d.saved();
    expect(await d.state()).toMatchObject({ saved: { city: 'Paris' } });
  });

  it('a ref from before a reload is refused with what to do, nothing is clicked, and DOM.query hands out new refs', async () => {
    const d = await drive(world);
    const outline = String((await d.tool('page_snapshot')).outline);
    const count = refOn(outline, 'button "COUNT"');
    await d.exec('Input.click', { target: count });
    expect(await d.state()).toEqual({ saved: null, clicks: 1 });
    await d.tab.reload();
    await waitFor(async () => (await d.tab.locator('#state').count()) === 1, 10_000, 'the app rendered again');
    await waitFor(() => Boolean(d.page.frames.get('main')?.stream?.isOpen), 10_000, 'the new document connected');
    const query = await d.exec('DOM.query', { target: 'css=button', all: true });
    const refs = (query.matches as Array<{ ref: string }>).map((m) => m.ref);
    expect(refs.length).toBeGreaterThan(1);
    expect(refs).not.toContain(count);
    const error = await d.toolError('page_exec', { cmd: 'Input.click', args: { target: count } });
    expect(error).toMatch(
      new RegExp(`ref ${count} is from an earlier document of this page.*take a new page_snapshot`),
    );
    expect(await d.state()).toEqual({ saved: null, clicks: 0 });
  });

  it('a ref whose element left the DOM is refused, not used on what replaced it', async () => {
    const d = await drive(world);
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const name = refOn(String((await d.tool('page_snapshot')).outline), 'textbox "Name"');
    await d.exec('Input.click', { target: 'text=Cancel' });
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const error = await d.toolError('page_exec', { cmd: 'Input.type', args: { target: name, text: 'Mallory' } });
    expect(error).toMatch(new RegExp(`ref ${name} named an element that is no longer in the page`));
    expect(await d.tab.inputValue('[role=dialog] input >> nth=0')).toBe('');
  });

  it('form_fill reaches the same-origin iframe form (radio group, switch, date) with and without frameId; the frame keeps the values', async () => {
    const d = await drive(world);
    await frameJoined(d.page);
    await d.tab.frameLocator('iframe').locator('form').waitFor();
    const ui = await d.tool('self_ui', { frameId: 'f1' });
    const [form] = ui.forms as Array<{ fields: Array<{ label: string; type: string }> }>;
    expect(form?.fields.map((f) => [f.label, f.type])).toEqual([
      ['Company', 'text'],
      ['Plan', 'radio'],
      ['Email invoices', 'switch'],
      ['Start date', 'date'],
    ]);
    await d.tool('form_fill', {
      frameId: 'f1',
      fields: { Company: 'ACME', Plan: 'Pro', 'Email invoices': true, 'Start date': '2026-12-01' },
      button: 'Save billing',
    });
    await waitFor(async () => (await d.state('#billing-state', 'iframe')) !== null, 5000, 'billing saved');
    expect(await d.state('#billing-state', 'iframe')).toEqual({
      company: 'ACME',
      plan: 'pro',
      invoices: true,
      start: '2026-12-01',
    });
    // without frameId: the page's agent lists the iframe's form and finds the fields there
    const top = await d.tool('self_ui');
    expect(top.forms).toEqual([expect.objectContaining({ title: 'Billing', frame: '/frame.html' })]);
    const again = await d.tool('form_fill', { fields: { Company: 'Initech', Plan: 'Free' }, button: 'Save billing' });
    expect(again.scope).toMatch(/frame/);
    await waitFor(
      async () => JSON.stringify(await d.state('#billing-state', 'iframe')).includes('Initech'),
      5000,
      'billing saved again',
    );
    expect(await d.state('#billing-state', 'iframe')).toMatchObject({ company: 'Initech', plan: 'free' });
  });

  it("a frame's refs carry the frame: they act in it without frameId, and the top document's refs never collide", async () => {
    const d = await drive(world);
    await frameJoined(d.page);
    await d.tab.frameLocator('iframe').locator('form').waitFor();
    const inner = String((await d.tool('page_snapshot', { frameId: 'f1' })).outline);
    const company = refOn(inner, 'textbox "Company"');
    expect(company).toMatch(/^f1:e\d+$/);
    await d.exec('Input.type', { target: company, text: 'Umbrella' });
    await d.exec('Input.click', { target: refOn(inner, 'button "SAVE BILLING"') });
    await waitFor(async () => (await d.state('#billing-state', 'iframe')) !== null, 5000, 'billing saved');
    expect(await d.state('#billing-state', 'iframe')).toMatchObject({ company: 'Umbrella' });
    const top = String((await d.tool('page_snapshot')).outline);
    expect(top).not.toMatch(new RegExp(`(^|\\s)${company.slice(3)} `));
  });
});

describe('MUI Autocomplete multiple (trip.html)', () => {
  it('form_fill takes a list of option texts: the Autocomplete holds exactly those afterwards (Lisbon, held before, is gone)', async () => {
    const d = await drive(world, 'trip.html');
    await d.tab.locator('#state').waitFor();
    const ui = await d.tool('self_ui');
    const [form] = ui.forms as Array<{ fields: Array<{ label: string; type: string; value: unknown }> }>;
    expect(form?.fields.find((f) => f.label === 'Cities')).toMatchObject({ type: 'combobox', value: ['Lisbon'] });
    // "Paris" twice is still one Paris (a second press would deselect it); "berlin" matches without case
    const filled = await d.tool('form_fill', { fields: { Cities: ['Paris', 'berlin', 'Paris'] }, button: 'Save trip' });
    expect(filled.notFilled).toBeUndefined();
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Cities', value: ['Paris', 'Berlin'] })]);
    expect(await d.saved()).toEqual(['Paris', 'Berlin']);
  });

  it('a city it does not offer is not filled: nothing changes, the result says what the app shows, and Save is not pressed', async () => {
    const d = await drive(world, 'trip.html');
    await d.tab.locator('#state').waitFor();
    const filled = await d.tool('form_fill', { fields: { Cities: ['Paris', 'Atlantis'] }, button: 'Save trip' });
    expect(filled.notFilled).toEqual([
      expect.objectContaining({
        field: 'Cities',
        wanted: ['Paris', 'Atlantis'],
        shows: ['Lisbon'],
        reason: expect.stringMatching(
          /no option "Atlantis"; options: "Amsterdam", "Berlin", "Lisbon", "Paris", "Zurich"/,
        ),
      }),
    ]);
    expect(await d.state()).toEqual({ saved: null });
    await d.tab.getByRole('button', { name: 'Save trip' }).click();
    expect(await d.saved()).toEqual(['Lisbon']);
  });

  it('page_exec Input.select with values replaces the selection too', async () => {
    const d = await drive(world, 'trip.html');
    await d.tab.locator('#state').waitFor();
    const chose = await d.exec('Input.select', { target: 'css=input[role=combobox]', values: ['Zurich', 'Amsterdam'] });
    expect(chose).toMatchObject({ selected: ['Zurich', 'Amsterdam'], shows: ['Zurich', 'Amsterdam'] });
    await d.tab.getByRole('button', { name: 'Save trip' }).click();
    expect(await d.saved()).toEqual(['Zurich', 'Amsterdam']);
  });
});

describe('MUI: the human picks and Alt+clicks', () => {
  it('the picker names the line of a plain tag and, for an MUI Button, the line where <Button> is written and the component', async () => {
    const d = await drive(world);
    const file = join(world.root, 'src/App.tsx');
    const heading = await pickWithMouse(d, d.tab.locator('h1'));
    expect(heading.source).toMatchObject({ file, line: lineOf(world.root, 'src/App.tsx', '<h1>'), via: 'data-source' });
    const button = await pickWithMouse(d, d.tab.getByRole('button', { name: 'Count' }));
    expect(button.source).toMatchObject({
      file,
      line: lineOf(world.root, 'src/App.tsx', '<Button onClick'),
      component: 'Button',
    });
    expect(await d.state()).toEqual({ saved: null, clicks: 0 }); // the picks did not reach the app
  });

  it('the picker works inside the same-origin iframe, and Esc pressed there cancels it', async () => {
    const d = await drive(world);
    await frameJoined(d.page);
    const frame = d.tab.frameLocator('iframe');
    await frame.locator('form').waitFor();
    const picked = await pickWithMouse(d, frame.getByRole('button', { name: 'Save billing' }));
    expect(picked.source).toMatchObject({
      file: join(world.root, 'src/BillingForm.tsx'),
      line: lineOf(world.root, 'src/BillingForm.tsx', '<Button type="submit">'),
      component: 'Button',
    });
    expect(await d.state('#billing-state', 'iframe')).toBeNull(); // the click did not submit the form

    const asked = d.agent.callTool({ name: 'user_pick_element', arguments: { pageId: d.page.pageId, prompt: 'x' } });
    await d.tab.locator('aiti-overlay .banner').waitFor();
    await frame.locator('input').first().focus();
    await d.tab.keyboard.press('Escape');
    const outcome = (await asked).structuredContent as Record<string, unknown>;
    expect(outcome.status).toBe('rejected');
  });

  it('Alt+click opens the line of a component in the editor: in the page and in the iframe', async () => {
    const d = await drive(world);
    await altClick(d, d.tab.getByRole('button', { name: 'Count' }));
    expect(await world.opened()).toMatch(
      new RegExp(`^${join(world.root, 'src/App.tsx')}:${lineOf(world.root, 'src/App.tsx', '<Button onClick')}:\\d+$`),
    );
    expect(await d.state()).toEqual({ saved: null, clicks: 0 });
    await frameJoined(d.page);
    const frame = d.tab.frameLocator('iframe');
    await altClick(d, frame.getByLabel('Company'));
    expect(await world.opened()).toMatch(
      new RegExp(
        `^${join(world.root, 'src/BillingForm.tsx')}:${lineOf(world.root, 'src/BillingForm.tsx', 'label="Company"')}:\\d+$`,
      ),
    );
  });
});

describe('MUI: navigation', () => {
  it('Page.reload with waitFor answers once the app has rendered it, so the next command finds it', async () => {
    const d = await drive(world);
    const reloaded = await d.exec('Page.reload', { waitFor: 'Edit profile' });
    expect(reloaded).toMatchObject({ reloaded: true, waited: { ok: true, found: 'text "Edit profile"' } });
    await d.exec('Input.click', { target: 'text=Edit profile' });
    expect(await d.tab.isVisible('[role=dialog]')).toBe(true);
  });

  it('a target missing right after a navigation says to wait with Page.waitFor', async () => {
    const d = await drive(world);
    await d.exec('Page.reload', {});
    const error = await d.toolError('page_exec', { cmd: 'Input.click', args: { target: 'css=#not-rendered' } });
    expect(error).toMatch(/no element matches "css=#not-rendered"; this document loaded .* call Page\.waitFor/);
  });

  it('a call to a page whose tab went on to another origin fails at once, naming the page it became', async () => {
    const d = await drive(world);
    const other = world.url.replace('127.0.0.1', 'localhost');
    // the app sends the tab away (a link, location.assign): the Navigation API lets the agent see where to
    await d.tab.evaluate((url) => location.assign(url), other);
    const next = await connectedPage(world.bridge, other);
    const started = Date.now();
    const error = await d.toolError('page_exec', { cmd: 'Input.click', args: { target: 'text=Count' } });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toContain(`page ${d.page.pageId} has gone: its tab went on to ${other}`);
    expect(error).toContain(`call again with pageId "${next.pageId}"`);
  });
});

describe('MUI: logs', () => {
  it('page_logs: one order by time, the uncaught error marked, its stack at the line written and without the agent', async () => {
    const d = await drive(world);
    await d.tab.getByRole('button', { name: 'Break' }).click();
    await waitFor(
      async () => JSON.stringify(await d.tool('page_logs', { since: new Date(0).toISOString() })).includes('kaboom'),
      5000,
      'the error reached the bridge',
    );
    const logs = await d.tool('page_logs', {});
    const entries = logs.entries as Array<{ text: string; at: string; uncaught?: boolean; stack?: string }>;
    const times = entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const info = entries.findIndex((e) => e.text === 'breaking on purpose');
    const error = entries.findIndex((e) => e.text.includes('kaboom'));
    expect(info).toBeGreaterThanOrEqual(0);
    expect(error).toBeGreaterThan(info);
    const entry = entries[error];
    expect(entry?.uncaught).toBe(true);
    expect(entries[info]?.uncaught).toBeUndefined();
    expect(entry?.stack).toContain(
      `${join(world.root, 'src/App.tsx')}:${lineOf(world.root, 'src/App.tsx', "new Error('kaboom')")}:`,
    );
    expect(entry?.stack).not.toContain('/aiti/page.js');
  });
});

describe('MUI: the snapshot of a dialog reads like the page', () => {
  it("with the dialog open the outline, refs and all, is no larger than Playwright's aria snapshot of the same state", async () => {
    const d = await drive(world);
    await d.tab.frameLocator('iframe').locator('form').waitFor();
    await d.tab.getByRole('button', { name: 'Edit profile' }).click();
    await d.tab.locator('[role=dialog] input').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const aria = await d.tab.locator('body').ariaSnapshot();
    expect(outline.length).toBeLessThanOrEqual(aria.length);
    // every control has its line and ref; the TextFields' wrappers and the Select's label have none of their own
    for (const line of [
      'textbox "Name"',
      'textbox:email "Email"',
      'combobox "Role" ="Viewer"',
      'checkbox "Newsletter"',
      'combobox "City"',
      'button "Save"',
    ])
      expect(outline).toMatch(new RegExp(`\\be\\d+ ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(outline).not.toMatch(/\be\d+ (div|span)\b/);
    expect(outline.split('\n')).not.toContain('  "Role"');
  });

  it("the docs' form dialog (subscribe.html): the outline with refs is no larger than Playwright's aria snapshot, and one fill saves it", async () => {
    const d = await drive(world, 'subscribe.html');
    await d.tab.getByRole('button', { name: 'Open form dialog' }).click();
    await d.tab.locator('[role=dialog] input').first().waitFor();
    const outline = String((await d.tool('page_snapshot')).outline);
    const aria = await d.tab.locator('body').ariaSnapshot();
    if (process.env.SHOW) console.error(`${outline}\n---\n${aria}\n${outline.length} vs ${aria.length}`);
    expect(outline.length).toBeLessThanOrEqual(aria.length);
    expect(outline).toMatch(/\be\d+ textbox:email "Email Address" \[required\]/);
    const filled = await d.tool('form_fill', { fields: { 'Email Address': 'ada@example.com' }, button: 'Subscribe' });
    expect(filled.notFilled).toBeUndefined();
    expect(await d.state()).toEqual({ saved: 'ada@example.com' });
  });

  it('after Save closes the dialog, the result reads the change against the page seen before the dialog, not the whole page', async () => {
    const d = await drive(world);
    await d.tab.frameLocator('iframe').locator('form').waitFor();
    await d.tool('page_snapshot');
    await d.exec('Input.click', { target: 'text=Edit profile' });
    const result = await d.agent.callTool({
      name: 'form_fill',
      arguments: { pageId: d.page.pageId, fields: { Name: 'Ada' }, button: 'Save' },
    });
    const text = resultText(result as CallToolResult);
    expect(text).toContain('The dialog closed; the page since you saw it before the dialog:');
    expect(text).toContain('- "{\\"saved\\":null,\\"clicks\\":0}"');
    // the page's own controls did not change: none of them is reported as added
    expect(text).not.toMatch(/\+ .*button "Edit profile"/);
    expect(text).not.toMatch(/\+ main/);
  });
});
