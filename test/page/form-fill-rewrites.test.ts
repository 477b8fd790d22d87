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
    <label>Nickname <input id="nick"></label>
    <label>Name * <input id="who" required></label>
    <label>Amount <input id="amount" inputmode="decimal"></label>
    <label>Seats <input id="seats" inputmode="numeric"></label>
    <label>Quantity <input id="qty" inputmode="numeric"></label>
    <label>Code <input id="code"></label>
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
  </script>`;

async function fillRewrites(fields: Record<string, string | number>) {
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
  it('the same number written with separators, a code in capitals: filled, into the field the label names', async () => {
    const { tab, result } = await fillRewrites({ Name: 'Ada', Amount: 1000, Seats: 1200, Code: 'abc-12' });
    expect(result.notFilled).toBeUndefined();
    expect(result.filled).toEqual([
      expect.objectContaining({ field: 'Name', value: 'Ada' }),
      expect.objectContaining({ field: 'Amount', value: '1,000' }),
      expect.objectContaining({ field: 'Seats', value: '1 200' }),
      expect.objectContaining({ field: 'Code', value: 'ABC-12' }),
    ]);
    // "Name" is the field labelled "Name *", not the "Nickname" before it
    expect(await tab.inputValue('#who')).toBe('Ada');
    expect(await tab.inputValue('#nick')).toBe('');
    expect(await tab.textContent('#out')).toBe('submitted');
  });

  it('another number than asked for, or a number field the app emptied: NOT filled, and the button is not pressed', async () => {
    const { tab, result } = await fillRewrites({ Seats: 2000, Quantity: 0 });
    expect(result.filled).toEqual([]);
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Seats', wanted: '2000', shows: '1 500' }),
      expect.objectContaining({ field: 'Quantity', wanted: '0', shows: '' }),
    ]);
    expect(await tab.textContent('#out')).toBe('');
  });
});
