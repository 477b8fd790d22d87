import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

const FORM = `
  <button onclick="document.getElementById('d').showModal()">Open settings</button>
  <dialog id="d"><h2>Settings</h2>
    <form method="dialog" onsubmit="document.getElementById('out').textContent = JSON.stringify(Object.fromEntries([...new FormData(this)].map(([k, v]) => [k, v]))) + ' ' + document.getElementById('bio').textContent">
      <fieldset><legend>Size</legend>
        <label><input type="radio" name="size" value="s"> Small</label>
        <label><input type="radio" name="size" value="l"> Large</label>
      </fieldset>
      <label>Notes <textarea name="notes"></textarea></label>
      <label>Tags <select name="tags" multiple><option>red</option><option>green</option><option>blue</option></select></label>
      <label>Count <input type="number" name="count"></label>
      <div>Bio</div><div id="bio" contenteditable="true" aria-label="Bio"></div>
      <button>Apply</button>
    </form>
  </dialog>
  <p id="out"></p>`;

describe('self_ui and form_fill on a native <dialog>', () => {
  it('lists the dialog and fills radios, textarea, multi-select, number and contenteditable, then submits', async () => {
    const bridge = await startBridge();
    const server = await serveFixture({
      '/': `<!doctype html><title>Settings</title>${agentTag(bridge)}<body>${FORM}</body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(server.url + '/');
    await connectedPage(bridge, server.url + '/');
    const agent = await connectAgent(bridge.url);

    const closed = structured(await callTool(agent, 'self_ui'));
    expect(closed.dialogs).toEqual([]);
    await tab.click('text=Open settings');

    const ui = structured(await callTool(agent, 'self_ui'));
    const [dialog] = ui.dialogs as Array<{
      title: string;
      modal: boolean;
      fields: Array<Record<string, unknown>>;
      buttons: Array<{ label: string }>;
    }>;
    expect(dialog).toMatchObject({ title: 'Settings', modal: true });
    expect(dialog?.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ label: 'Size', type: 'radio', options: ['Small', 'Large'], value: '' }),
        expect.objectContaining({ label: 'Tags', type: 'select-multiple', options: ['red', 'green', 'blue'] }),
        expect.objectContaining({ label: 'Bio', type: 'contenteditable' }),
      ]),
    );
    expect(dialog?.buttons.map((b) => b.label)).toEqual(['Apply']);

    const filled = structured(
      await callTool(agent, 'form_fill', {
        dialog: 'Settings',
        fields: { Size: 'Large', Notes: 'two\nlines', Tags: ['red', 'blue'], Count: 7, Bio: 'Hello there' },
        button: 'Apply',
      }),
    );
    expect(filled).toMatchObject({ scope: 'dialog "Settings"', dialogOpen: false });
    expect(await tab.textContent('#out')).toBe(
      '{"size":"l","notes":"two\\nlines","tags":"blue","count":"7"} Hello there',
    );
  });

  it('a field that matches nothing is reported with the fields there; the others are filled and the button is not pressed', async () => {
    const bridge = await startBridge();
    const server = await serveFixture({
      '/': `<!doctype html><title>Settings</title>${agentTag(bridge)}<body>${FORM}</body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(server.url + '/');
    await connectedPage(bridge, server.url + '/');
    await tab.click('text=Open settings');
    const agent = await connectAgent(bridge.url);
    const result = await callTool(agent, 'form_fill', { fields: { Notes: 'x', Colour: 'red' }, button: 'Apply' });
    expect(resultText(result).split('\n')[0]).toMatch(
      /^NOT filled: "Colour" \(wanted "red", the app shows "": no field matches it/,
    );
    const filled = structured(result);
    expect(filled.notFilled).toEqual([
      expect.objectContaining({
        field: 'Colour',
        wanted: 'red',
        reason: expect.stringMatching(/no field matches it in dialog "Settings"; fields there: "Size", "Notes"/),
      }),
    ]);
    expect(filled.filled).toEqual([expect.objectContaining({ field: 'Notes', value: 'x' })]);
    expect(filled.clicked).toBeUndefined();
    expect(await tab.inputValue('textarea')).toBe('x');
    // Apply was not pressed: the dialog is open and the form was not submitted
    expect(await tab.isVisible('dialog')).toBe(true);
    expect(await tab.textContent('#out')).toBe('');
  });
});

/** A page whose own code decides what it keeps: the read-back must report what it kept, not what was set. */
const KEEPS_LESS = `
  <form id="f" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted'">
    <span id="tl">Toppings</span>
    <button type="button" id="tb" aria-haspopup="listbox" aria-labelledby="tl" aria-expanded="false" aria-controls="tlist">Cheese</button>
    <ul id="tlist" role="listbox" aria-multiselectable="true" hidden>
      <li role="option" aria-selected="true">Cheese</li>
      <li role="option" aria-selected="false">Olives</li>
      <li role="option" aria-selected="false">Basil</li>
    </ul>
    <div id="slot"><label for="code">Code</label><input id="code"></div>
    <button>Order</button>
  </form>
  <p id="out"></p>
  <script>
    const button = document.getElementById('tb');
    const list = document.getElementById('tlist');
    button.addEventListener('click', () => {
      list.hidden = !list.hidden;
      button.setAttribute('aria-expanded', String(!list.hidden));
    });
    // the app keeps one topping at most: choosing one replaces the other
    list.addEventListener('click', (event) => {
      const option = event.target.closest('[role=option]');
      if (!option) return;
      const was = option.getAttribute('aria-selected') === 'true';
      for (const o of list.children) o.setAttribute('aria-selected', 'false');
      option.setAttribute('aria-selected', String(!was));
      button.textContent = was ? '' : option.textContent;
    });
    // the app re-renders the code field from its own state, which refuses every code: a new, empty input
    document.getElementById('slot').addEventListener('change', (event) => {
      if (event.target.id !== 'code') return;
      const fresh = document.createElement('input');
      fresh.id = 'code';
      event.target.replaceWith(fresh);
    });
  </script>`;

describe('form_fill reads back what the app kept', () => {
  async function page() {
    const bridge = await startBridge();
    const server = await serveFixture({
      '/': `<!doctype html><title>Order</title>${agentTag(bridge)}<body>${KEEPS_LESS}</body>`,
    });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(server.url + '/');
    await connectedPage(bridge, server.url + '/');
    return { tab, agent: await connectAgent(bridge.url) };
  }

  it('a multi-select whose app kept one of the two values asked for is NOT filled, and the button is not pressed', async () => {
    const { tab, agent } = await page();
    const filled = structured(
      await callTool(agent, 'form_fill', { fields: { Toppings: ['Olives', 'Basil'] }, button: 'Order' }),
    );
    expect(filled.filled).toEqual([]);
    expect(filled.notFilled).toEqual([
      expect.objectContaining({ field: 'Toppings', wanted: ['Olives', 'Basil'], shows: 'Basil' }),
    ]);
    expect(await tab.textContent('#out')).toBe('');
  });

  it('a field the app replaced with an empty one is NOT filled: the field read is the one the page shows now', async () => {
    const { tab, agent } = await page();
    const filled = structured(await callTool(agent, 'form_fill', { fields: { Code: 'ABC-123' }, button: 'Order' }));
    expect(filled.notFilled).toEqual([expect.objectContaining({ field: 'Code', wanted: 'ABC-123', shows: '' })]);
    expect(await tab.inputValue('#code')).toBe('');
    expect(await tab.textContent('#out')).toBe('');
  });
});
