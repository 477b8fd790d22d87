import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * Date fields that say what they are only by their shape: a field of month/day/year spinbuttons with no calendar
 * (typed digit by digit, arrows step it), a text box that names its format only in a hint it is described by (and
 * refuses any other way of writing the day), and a read-only box whose calendar is a block of day buttons laid
 * out by CSS, with no caption a person reads as text — only the days' own labels say which month it shows.
 */
const TRIP = `
  <form id="trip">
    <span id="start-label">Start date</span>
    <div role="group" aria-labelledby="start-label" id="start">
      <span role="spinbutton" tabindex="0" aria-label="month" aria-valuemin="1" aria-valuemax="12">mm</span>/
      <span role="spinbutton" tabindex="0" aria-label="day" aria-valuemin="1" aria-valuemax="31">dd</span>/
      <span role="spinbutton" tabindex="0" aria-label="year" aria-valuemin="1900" aria-valuemax="2100">yyyy</span>
    </div>
    <label for="delivery">Delivery</label>
    <input id="delivery" aria-describedby="delivery-hint"><small id="delivery-hint">Format: DD.MM.YYYY</small>
    <label for="day">Trip day</label>
    <span><input id="day" readonly placeholder="Pick one"><button type="button" id="open" aria-label="Open calendar">📅</button></span>
    <div id="cal" hidden>
      <button type="button" id="prev" aria-label="Previous month">‹</button>
      <button type="button" id="next" aria-label="Next month">›</button>
      <div id="days" style="display: grid; grid-template-columns: repeat(7, 32px)"></div>
    </div>
  </form>
  <pre id="state">{}</pre>
  <script>
    const state = {};
    const show = () => (document.getElementById('state').textContent = JSON.stringify(state));
    const iso = (y, m, d) => y + '-' + String(m).padStart(2, '0') + '-' + String(d).padStart(2, '0');
    // the segments: digits typed fill a segment (two for month and day, four for the year), arrows step it
    const parts = {};
    for (const seg of document.querySelectorAll('#start [role=spinbutton]')) {
      const name = seg.getAttribute('aria-label');
      const min = Number(seg.getAttribute('aria-valuemin'));
      const max = Number(seg.getAttribute('aria-valuemax'));
      let typed = '';
      const set = (value) => {
        parts[name] = value;
        seg.setAttribute('aria-valuenow', String(value));
        seg.textContent = String(value).padStart(name === 'year' ? 4 : 2, '0');
        if (parts.month && parts.day && parts.year) { state.start = iso(parts.year, parts.month, parts.day); show(); }
      };
      seg.addEventListener('keydown', (e) => {
        if (e.key === 'ArrowUp') set(parts[name] ? Math.min(max, parts[name] + 1) : name === 'year' ? 2026 : min);
        else if (e.key === 'ArrowDown') set(parts[name] ? Math.max(min, parts[name] - 1) : name === 'year' ? 2026 : max);
        else if (/^[0-9]$/.test(e.key)) {
          typed += e.key;
          const width = name === 'year' ? 4 : 2;
          if (typed.length === width) { const n = Number(typed); typed = ''; if (n >= min && n <= max) set(n); }
        } else return;
        e.preventDefault();
      });
      seg.addEventListener('blur', () => (typed = ''));
    }
    // the hinted box: DD.MM.YYYY or nothing
    document.getElementById('delivery').addEventListener('change', (e) => {
      const m = /^(\\d{2})\\.(\\d{2})\\.(\\d{4})$/.exec(e.target.value);
      state.delivery = m ? iso(m[3], m[2], m[1]) : null;
      if (!m) e.target.value = '';
      show();
    });
    // the calendar: opens on this month, the days labelled with their full date, no caption
    const names = ['January','February','March','April','May','June','July','August','September','October','November','December'];
    let shown = new Date(2026, 11, 1);
    const draw = () => {
      const days = document.getElementById('days');
      days.innerHTML = '';
      const count = new Date(shown.getFullYear(), shown.getMonth() + 1, 0).getDate();
      for (let d = 1; d <= count; d++) {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = String(d);
        b.setAttribute('aria-label', names[shown.getMonth()] + ' ' + d + ', ' + shown.getFullYear());
        b.addEventListener('click', () => {
          const input = document.getElementById('day');
          input.value = String(shown.getMonth() + 1).padStart(2, '0') + '/' + String(d).padStart(2, '0') + '/' + shown.getFullYear();
          state.day = iso(shown.getFullYear(), shown.getMonth() + 1, d);
          document.getElementById('cal').hidden = true;
          show();
        });
        days.append(b);
      }
    };
    document.getElementById('open').addEventListener('click', () => { draw(); document.getElementById('cal').hidden = false; });
    document.getElementById('prev').addEventListener('click', () => { shown = new Date(shown.getFullYear(), shown.getMonth() - 1, 1); draw(); });
    document.getElementById('next').addEventListener('click', () => { shown = new Date(shown.getFullYear(), shown.getMonth() + 1, 1); draw(); });
  </script>`;

async function trip() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Trip</title>${agentTag(bridge)}<body>${TRIP}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url);
  await connectedPage(bridge, server.url);
  const agent = await connectAgent(bridge.url);
  const fill = async (fields: Record<string, unknown>) => structured(await callTool(agent, 'form_fill', { fields }));
  const state = async () => JSON.parse((await tab.textContent('#state')) ?? '{}') as Record<string, unknown>;
  return { fill, state };
}

describe('date fields known by their shape', () => {
  it('a field of month, day and year segments with no calendar: each segment set from the keyboard', async () => {
    const { fill, state } = await trip();
    const result = await fill({ 'Start date': '2027-03-15' });
    expect(result.notFilled).toBeUndefined();
    expect(await state()).toMatchObject({ start: '2027-03-15' });
  });

  it('a text box that names its format only in its hint gets the day written that way', async () => {
    const { fill, state } = await trip();
    const result = await fill({ Delivery: '2027-03-15' });
    expect(result.notFilled).toBeUndefined();
    expect(result.filled).toEqual([expect.objectContaining({ field: 'Delivery', value: '15.03.2027' })]);
    expect(await state()).toMatchObject({ delivery: '2027-03-15' });
  });

  it('a read-only box whose calendar has no caption: the month is read from its days, the day pressed', async () => {
    const { fill, state } = await trip();
    const result = await fill({ 'Trip day': '2027-03-15' });
    expect(result.notFilled).toBeUndefined();
    expect(await state()).toMatchObject({ day: '2027-03-15' });
  });
});
