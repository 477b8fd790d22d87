import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, refOf } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * A booking page whose own code settles a value on blur, clamps a number and shows its buttons late; a field
 * whose label holds another's ("Backup city", "City"), one with no label at all, and a code whose first digit
 * moves focus on to the second.
 */
const BOOKING = `
  <form id="book" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'booked ' + this.city.value">
    <label>Backup city <input name="backup" id="backup" placeholder="Second choice"></label>
    <label>City <input name="city" id="city"></label>
    <label>Seats <input type="number" name="party_size" id="seats"></label>
    <span id="arrival-label">Arrival</span> <input id="arrival" aria-labelledby="arrival-label" aria-label="Arrival day">
    <label><input type="checkbox" id="window"> Window seat</label>
    <input value="Express">
    <label>Code <input id="code1" maxlength="1"></label><input id="code2" maxlength="1" aria-label="Code, second digit">
    <div id="actions" aria-hidden="true"><button type="button" onclick="document.getElementById('out').textContent = 'kept for later'">Send later</button><button id="send">Send</button>
      <button type="button" value="Search" onclick="document.getElementById('out').textContent = 'searched'"><svg width="12" height="12"></svg></button></div>
  </form>
  <p id="out"></p>
  <iframe title="Contact" src="/contact"></iframe>
  <script>
    // the app writes the city as it stores it once the field is left
    document.getElementById('city').addEventListener('blur', (e) => (e.target.value = e.target.value.toUpperCase()));
    // a digit typed moves on to the next box, as code fields do
    document.getElementById('code1').addEventListener('input', () => document.getElementById('code2').focus());
    // four seats at most
    document.getElementById('seats').addEventListener('change', (e) => (e.target.value = String(Math.min(4, Number(e.target.value)))));
    // the actions stay hidden while a menu closes, a moment after the city changed
    document.getElementById('city').addEventListener('input', () =>
      setTimeout(() => document.getElementById('actions').removeAttribute('aria-hidden'), 800));
  </script>`;

/**
 * An open dialog that closes only once its save request answered, with a free-text combobox that settles its
 * text when focus leaves it; a notice without fields opened before it, and a frame with a field of its own.
 */
const SLOW_DIALOG = `
  <dialog id="notice" open><h2>Notice</h2><p>Saving may take a moment.</p></dialog>
  <dialog id="slow" open><h2>Slow save</h2>
    <form onsubmit="event.preventDefault(); setTimeout(() => document.getElementById('slow').close(), 400)">
      <label>Title <input id="title"></label>
      <label>Destination <input role="combobox" aria-expanded="false" id="destination"></label>
      <button>Save</button>
    </form>
  </dialog>
  <iframe title="Contact" src="/contact"></iframe>
  <script>
    // no list of suggestions: what is typed is free text, settled on blur
    document.getElementById('destination').addEventListener('blur', (e) => (e.target.value = e.target.value.trim().toUpperCase()));
  </script>`;

async function booking() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Booking</title>${agentTag(bridge)}<body>${BOOKING}</body>`,
    '/dialog': `<!doctype html><title>Slow</title>${agentTag(bridge)}<body>${SLOW_DIALOG}</body>`,
    '/contact': `<!doctype html><title>Contact</title><body><label>Email <input id="email"></label><label>Seats <input id="contact-seats"></label></body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  const open = async (path: string) => {
    await tab.goto(server.url + path);
    await connectedPage(bridge, server.url + path);
  };
  const agent = await connectAgent(bridge.url);
  const fill = async (args: Record<string, unknown>) => structured(await callTool(agent, 'form_fill', args));
  const fails = async (args: Record<string, unknown>) => {
    const result = await callTool(agent, 'form_fill', args);
    expect(result.isError).toBe(true);
    return resultText(result);
  };
  const snapshot = async () => String(structured(await callTool(agent, 'page_snapshot')).outline);
  const email = () => tab.frameLocator('iframe').locator('#email').inputValue();
  return { tab, open, fill, fails, snapshot, email };
}

describe('form_fill: what the page does after the fill, and where it looks', () => {
  it('reads back what the app settled once focus left; a button shown a moment later is pressed', async () => {
    const { tab, open, fill } = await booking();
    await open('/');
    const result = await fill({ fields: { City: 'oslo' }, button: 'Send' });
    expect(result).toMatchObject({ scope: 'the page', clicked: expect.stringContaining('Send') });
    // no dialog: nothing to say about one staying open
    expect(result).not.toHaveProperty('dialogOpen');
    expect(result.filled).toEqual([{ field: 'City', selector: expect.any(String), value: 'OSLO' }]);
    expect(await tab.textContent('#out')).toBe('booked OSLO');
    // the selector it reports names the field
    const [{ selector }] = result.filled as [{ selector: string }];
    expect(await tab.locator(selector).inputValue()).toBe('OSLO');
  });

  it('a free-text combobox in a dialog: the read-back is what it settled to once focus left it', async () => {
    const { tab, open, fill } = await booking();
    await open('/dialog');
    const result = await fill({ dialog: 'Slow save', fields: { Title: 'Minutes', Destination: 'bergen' } });
    expect(result.filled).toEqual([
      expect.objectContaining({ field: 'Title', value: 'Minutes' }),
      expect.objectContaining({ field: 'Destination', value: 'BERGEN' }),
    ]);
    expect(await tab.inputValue('#destination')).toBe('BERGEN');
  });

  it('a field by placeholder, name or aria-label beside its label, by part of its label, by text=', async () => {
    const { tab, open, fill } = await booking();
    await open('/');
    const result = await fill({
      fields: {
        'Second choice': 'Bergen',
        party_size: 3,
        'Arrival day': 'Friday',
        'Window s': true,
        'text=City': 'rome',
      },
    });
    expect(result.notFilled).toBeUndefined();
    expect(await tab.inputValue('#backup')).toBe('Bergen');
    expect(await tab.inputValue('#seats')).toBe('3');
    expect(await tab.inputValue('#arrival')).toBe('Friday');
    expect(await tab.isChecked('#window')).toBe(true);
    expect(await tab.inputValue('#city')).toBe('ROME');
  });

  it('a button by part of its name, or by its value when it shows only an icon', async () => {
    const { tab, open, fill } = await booking();
    await open('/');
    expect(await fill({ fields: { City: 'Oslo' }, button: 'later' })).toMatchObject({
      clicked: expect.stringContaining('Send later'),
    });
    expect(await tab.textContent('#out')).toBe('kept for later');
    await fill({ fields: { City: 'Oslo' }, button: 'Search' });
    expect(await tab.textContent('#out')).toBe('searched');
  });

  it('focus the app moved on to the next box stays there', async () => {
    const { tab, open, fill } = await booking();
    await open('/');
    const result = await fill({ fields: { Code: '7' } });
    expect(result.filled).toEqual([expect.objectContaining({ field: 'Code', value: '7' })]);
    expect(await tab.evaluate(() => document.activeElement?.id)).toBe('code2');
  });

  it('a number the app clamped: NOT filled, wanted said as text beside what it shows', async () => {
    const { tab, open, fill } = await booking();
    await open('/');
    // and what was not filled in the order the keys were given, whatever the reason
    // a field is never named by what it holds ("Express", in the unlabelled one)
    const result = await fill({ fields: { Seats: 5, Colour: 'red', Express: 'no' } });
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Seats', wanted: '5', shows: '4', reason: 'the app did not keep the value' }),
      expect.objectContaining({ field: 'Colour', reason: expect.stringMatching(/^no field matches it/) }),
      expect.objectContaining({ field: 'Express', reason: expect.stringMatching(/^no field matches it/) }),
    ]);
    expect(await tab.inputValue('input[value=Express]')).toBe('Express');
    // no button asked for: nothing to say about one
    expect(result).not.toHaveProperty('note');
  });

  it('keys split between the page and a frame: the page is the scope, the frame is left alone', async () => {
    const { tab, open, fill, email } = await booking();
    await open('/');
    // all of them in the page: filled there, though the frame has them too
    expect(await fill({ fields: { Seats: 2 } })).toMatchObject({ scope: 'the page' });
    expect(await tab.inputValue('#seats')).toBe('2');
    const result = await fill({ fields: { City: 'Rome', Email: 'ada@example.com' } });
    expect(result).toMatchObject({ scope: 'the page' });
    expect(result.notFilled).toEqual([
      expect.objectContaining({
        field: 'Email',
        reason:
          'no field matches it in the page; fields there: "Backup city", "City", "Seats", "Arrival", "Window seat", "Code", "Code, second digit" (call self_ui for selectors)',
      }),
    ]);
    expect(await email()).toBe('');
  });

  it('a named dialog is the only scope: a key that only a frame has is NOT filled there', async () => {
    const { open, fill, email } = await booking();
    await open('/dialog');
    for (const args of [{ dialog: 'Slow save' }, {}]) {
      const result = await fill({ ...args, fields: { Email: 'ada@example.com' } });
      expect(result).toMatchObject({ scope: 'dialog "Slow save"' });
      expect(result.notFilled).toEqual([
        expect.objectContaining({ field: 'Email', reason: expect.stringMatching(/in dialog "Slow save"/) }),
      ]);
    }
    expect(await email()).toBe('');
  });

  it('a dialog without fields: the key is NOT filled, and "none" are there', async () => {
    const { open, fill } = await booking();
    await open('/dialog');
    const result = await fill({ dialog: 'Notice', fields: { Title: 'x' } });
    expect(result.notFilled).toEqual([
      expect.objectContaining({
        field: 'Title',
        reason: 'no field matches it in dialog "Notice"; fields there: none (call self_ui for selectors)',
      }),
    ]);
  });

  it('a dialog that closes once its save request answered is reported closed', async () => {
    const { tab, open, fill } = await booking();
    await open('/dialog');
    const result = await fill({ dialog: 'Slow save', fields: { Title: 'Minutes' }, button: 'Save' });
    expect(result).toMatchObject({ clicked: expect.stringContaining('Save'), dialogOpen: false });
    expect(await tab.isVisible('#slow')).toBe(false);
  });

  it('the field and the button named by the refs of a snapshot', async () => {
    const { tab, open, fill, snapshot } = await booking();
    await open('/');
    await tab.evaluate(() => document.getElementById('actions')?.removeAttribute('aria-hidden'));
    const outline = await snapshot();
    const result = await fill({
      fields: { [refOf(outline, 'textbox "City"')]: 'Lima' },
      button: refOf(outline, 'button "Send"'),
    });
    expect(result).toMatchObject({ clicked: expect.stringContaining('Send') });
    expect(await tab.textContent('#out')).toBe('booked LIMA');
  });

  it('a frame without buttons: the missing button is named, and "none" are there', async () => {
    const { open, fails, email } = await booking();
    await open('/');
    expect(await fails({ fields: { Email: 'ada@example.com' }, button: 'Go' })).toMatch(
      /the fields were filled, but no button "Go" is in the frame \/contact; buttons there: none/,
    );
    expect(await email()).toBe('ada@example.com');
  });

  it('no dialog open: a dialog asked for by name is an error that says none is open', async () => {
    const { open, fails } = await booking();
    await open('/');
    expect(await fails({ dialog: 'Payment', fields: { City: 'x' } })).toMatch(
      /no open dialog matches "Payment"; open dialogs: none; call self_ui/,
    );
  });
});
