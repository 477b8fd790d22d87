import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * A native multi-select whose app decides what it keeps, read back as a list of values: form_fill reports
 * "filled" only for exactly the values asked for, none missing and none extra (the read-back of a widget that
 * shows its values as text is in form-fill.test.ts).
 */
const PICKY_SELECT = `
  <form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted'">
    <label for="t">Toppings</label>
    <select id="t" multiple>
      <option>Cheese</option><option>Olives</option><option>Basil</option>
    </select>
    <button>Order</button>
  </form>
  <p id="out"></p>
  <script>
    const select = document.getElementById('t');
    // ?keep=last: the app keeps one topping at most; ?keep=more: it adds Cheese to whatever was chosen
    const keep = new URLSearchParams(location.search).get('keep');
    select.addEventListener('change', () => {
      const chosen = [...select.selectedOptions];
      if (keep === 'last') for (const o of chosen.slice(0, -1)) o.selected = false;
      if (keep === 'more') select.options[0].selected = true;
    });
  </script>`;

async function fillToppings(keep: string) {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Order</title>${agentTag(bridge)}<body>${PICKY_SELECT}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  const url = `${server.url}/?keep=${keep}`;
  await tab.goto(url);
  await connectedPage(bridge, url);
  const agent = await connectAgent(bridge.url);
  const result = await callTool(agent, 'form_fill', { fields: { Toppings: ['Olives', 'Basil'] }, button: 'Order' });
  expect(result.isError ?? false).toBe(false);
  return { result: (result.structuredContent ?? {}) as Record<string, unknown>, out: await tab.textContent('#out') };
}

describe('form_fill on a multi-select reads back the values the app kept', () => {
  it('one of the two asked for kept: NOT filled, says what it shows, and the button is not pressed', async () => {
    const { result, out } = await fillToppings('last');
    expect(result.filled).toEqual([]);
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Toppings', wanted: ['Olives', 'Basil'], shows: ['Basil'] }),
    ]);
    expect(out).toBe('');
  });

  it('one more kept than asked for: NOT filled either', async () => {
    const { result, out } = await fillToppings('more');
    expect(result.filled).toEqual([]);
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Toppings', shows: ['Cheese', 'Olives', 'Basil'] }),
    ]);
    expect(out).toBe('');
  });

  it('both kept: filled, and the button pressed', async () => {
    const { result, out } = await fillToppings('all');
    expect(result.notFilled).toBeUndefined();
    expect(result.filled).toEqual([expect.objectContaining({ field: 'Toppings' })]);
    expect(out).toBe('submitted');
  });
});
