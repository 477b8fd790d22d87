import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * Fields whose app rewrites what was typed the way apps do: a number with thousands separators, one it clamps,
 * one it clears, a code in capitals. The read-back compares as a person would: the same number is filled however
 * it is written, another number or an empty field is not.
 */
const REWRITES = `
  <form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted'">
    <label>Full name of the card holder <input id="holder"></label>
    <label>Full name * <input id="who" required></label>
    <label>Amount <input id="amount" inputmode="decimal"></label>
    <label>Seats <input id="seats" inputmode="numeric"></label>
    <label>Quantity <input id="qty" inputmode="numeric"></label>
    <label>Code <input id="code"></label>
    <label><input type="checkbox" id="news"> Newsletter</label>
    <label><input type="checkbox" id="terms"> Terms</label>
    <label>Arrival <input type="date" id="arrival"></label>
    <label>Extras <select id="extras" multiple><option>Towels</option><option>Parking</option></select></label>
    <span id="sl">Seasoning</span>
    <button type="button" id="sb" aria-haspopup="listbox" aria-labelledby="sl" aria-expanded="false" aria-controls="slist"></button>
    <ul id="slist" role="listbox" aria-multiselectable="true" hidden>
      <li role="option" aria-selected="false">Basil</li>
      <li role="option" aria-selected="false">Oil</li>
      <li role="option" aria-selected="false">Salt, pepper</li>
    </ul>
    <button>Order</button>
  </form>
  <p id="out"></p>
  <script>
    const digits = (text) => Number(text.replace(/[\\s,]/g, ''));
    const on = (id, rewrite) => document.getElementById(id).addEventListener('change', (e) => (e.target.value = rewrite(e.target.value)));
    on('amount', (v) => digits(v).toLocaleString('en-US'));
    // at most 1500 seats, written "1 500"
    on('seats', (v) => String(Math.min(digits(v), 1500)).replace(/\\B(?=(\\d{3})+$)/g, ' '));
    // fewer than one is no quantity: the field is emptied
    on('qty', (v) => (digits(v) < 1 ? '' : v));
    on('code', (v) => v.toUpperCase());
    // the terms cannot be accepted here, and no arrival before 2026
    document.getElementById('terms').addEventListener('change', (e) => (e.target.checked = false));
    on('arrival', (v) => (v < '2026-01-01' ? '' : v));
    // the seasoning button shows what is chosen, in the list's order
    const button = document.getElementById('sb');
    const list = document.getElementById('slist');
    button.addEventListener('click', () => {
      list.hidden = !list.hidden;
      button.setAttribute('aria-expanded', String(!list.hidden));
    });
    list.addEventListener('click', (event) => {
      const option = event.target.closest('[role=option]');
      if (!option) return;
      option.setAttribute('aria-selected', String(option.getAttribute('aria-selected') !== 'true'));
      button.textContent = [...list.children].filter((o) => o.getAttribute('aria-selected') === 'true').map((o) => o.textContent).join(', ');
    });
  </script>`;

async function fillRewrites(fields: Record<string, string | number | boolean | string[]>) {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Booking</title>${agentTag(bridge)}<body>${REWRITES}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url + '/');
  await connectedPage(bridge, server.url + '/');
  const agent = await connectAgent(bridge.url);
  const result = await callTool(agent, 'form_fill', { fields, button: 'Order' });
  expect(result.isError ?? false).toBe(false);
  return { tab, result: (result.structuredContent ?? {}) as Record<string, unknown> };
}

describe('form_fill reads back a value the app rewrote', () => {
  it('the same number written with separators, a code in capitals, values in another order: filled, into the field the label names', async () => {
    const { tab, result } = await fillRewrites({
      'Full name': 'Ada',
      Amount: 1000,
      Seats: 1200,
      Code: 'abc-12',
      Newsletter: true,
      Arrival: '2027-03-15',
      Extras: 'Towels',
      Seasoning: ['Oil', 'Basil'],
    });
    expect(result.notFilled).toBeUndefined();
    expect(result.filled).toEqual([
      expect.objectContaining({ field: 'Full name', value: 'Ada' }),
      expect.objectContaining({ field: 'Amount', value: '1,000' }),
      expect.objectContaining({ field: 'Seats', value: '1 200' }),
      expect.objectContaining({ field: 'Code', value: 'ABC-12' }),
      expect.objectContaining({ field: 'Newsletter', value: true }),
      expect.objectContaining({ field: 'Arrival', value: '2027-03-15' }),
      expect.objectContaining({ field: 'Extras', value: ['Towels'] }),
      expect.objectContaining({ field: 'Seasoning', value: 'Basil, Oil' }),
    ]);
    // "Full name" is the field labelled "Full name *", not the one whose label only starts so
    expect(await tab.inputValue('#who')).toBe('Ada');
    expect(await tab.inputValue('#holder')).toBe('');
    expect(await tab.textContent('#out')).toBe('submitted');
  });

  it('a value with a comma among several shown as one text: filled', async () => {
    const { result } = await fillRewrites({ Seasoning: ['Basil', 'Salt, pepper'] });
    expect(result.notFilled).toBeUndefined();
    expect(result.filled).toEqual([expect.objectContaining({ field: 'Seasoning', value: 'Basil, Salt, pepper' })]);
  });

  it('another number than asked for, a number field or a date the app emptied, a box it unticked: NOT filled, and the button is not pressed', async () => {
    const { tab, result } = await fillRewrites({ Seats: 2000, Quantity: 0, Terms: true, Arrival: '2020-01-01' });
    expect(result.filled).toEqual([]);
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Seats', wanted: '2000', shows: '1 500' }),
      expect.objectContaining({ field: 'Quantity', wanted: '0', shows: '' }),
      expect.objectContaining({ field: 'Terms', wanted: true, shows: false }),
      expect.objectContaining({ field: 'Arrival', shows: '' }),
    ]);
    expect(await tab.textContent('#out')).toBe('');
  });
});
