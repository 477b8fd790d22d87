import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** An account form whose fields are named every way a page names them, and two open dialogs. */
const ACCOUNT = `
  <form id="main" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'saved ' + new URLSearchParams(new FormData(this))">
    <label>Username <input name="user"></label>
    <input id="city" name="town" placeholder="Your city">
    <input name="zip_code">
    <input name="tel" aria-label="Phone number">
    <label>Password <input type="password" name="pw" id="pw"></label>
    <label>Pin <input type="password" id="pin"></label>
    <label>Member since <input name="since" disabled value="2019"></label>
    <fieldset><legend>Plan</legend>
      <label><input type="radio" name="plan" value="free"> Free</label>
      <label><input type="radio" name="plan" value="pro"> Pro</label>
    </fieldset>
    <button type="button" disabled>Delete</button>
    <button id="save">Save</button>
  </form>
  <p id="out"></p>
  <dialog id="book" open><h2>Address book</h2><label>Street <input id="book-street"></label><button>Close book</button></dialog>
  <dialog id="addr" open><h2>Address</h2>
    <form method="dialog" onsubmit="if (!this.street.value.includes(' ')) { event.preventDefault(); }">
      <label>Street <input name="street" id="addr-street"></label><button>Use</button>
    </form>
  </dialog>
  <script>
    // a pin is four digits: anything longer is cut to its first four
    document.getElementById('pin').addEventListener('change', (e) => (e.target.value = e.target.value.slice(0, 4)));
  </script>`;

async function account() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Account</title>${agentTag(bridge)}<body>${ACCOUNT}</body>`,
    '/framed': `<!doctype html><title>Framed</title>${agentTag(bridge)}<body><h1>Host</h1><iframe title="Login" src="/login"></iframe></body>`,
    '/login': `<!doctype html><title>Login</title><body><form><label>Email <input id="email"></label><label>Secret <input type="password" id="secret"></label></form></body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url + '/');
  await connectedPage(bridge, server.url + '/');
  const agent = await connectAgent(bridge.url);
  const fill = async (args: Record<string, unknown>) => structured(await callTool(agent, 'form_fill', args));
  const fails = async (args: Record<string, unknown>) => {
    const result = await callTool(agent, 'form_fill', args);
    expect(result.isError).toBe(true);
    return resultText(result);
  };
  return { server, tab, fill, fails };
}

describe('form_fill finds the field, the dialog and the button the agent named', () => {
  it('by selector, label, placeholder, name, aria-label and radio option; a password never echoed; the button by selector', async () => {
    const { tab, fill } = await account();
    const filled = await fill({
      dialog: 'css=#main',
      fields: {
        'Phone number': '555 1234',
        'css=#city': 'Oslo',
        Username: 'ada',
        zip_code: '0150',
        Password: 'correct horse',
        Pro: true,
      },
      button: 'css=#save',
    });
    expect(filled.notFilled).toBeUndefined();
    // in the order the keys were given, each with what the page shows
    expect(filled.filled).toEqual([
      expect.objectContaining({ field: 'Phone number', value: '555 1234' }),
      expect.objectContaining({ field: 'css=#city', value: 'Oslo' }),
      expect.objectContaining({ field: 'Username', value: 'ada' }),
      expect.objectContaining({ field: 'zip_code', value: '0150' }),
      expect.objectContaining({ field: 'Password', value: '••••••••' }),
      expect.objectContaining({ field: 'Pro', value: 'Pro' }),
    ]);
    expect(JSON.stringify(filled)).not.toContain('horse');
    expect(await tab.textContent('#out')).toBe(
      'saved user=ada&town=Oslo&zip_code=0150&tel=555+1234&pw=correct+horse&plan=pro',
    );
  });

  it('a password the app cut, a disabled field: NOT filled, the password still masked, the reason given', async () => {
    const { tab, fill } = await account();
    const result = await fill({
      dialog: 'css=#main',
      fields: { Pin: '123456', 'Member since': '2020' },
      button: 'Save',
    });
    expect(result.filled).toEqual([]);
    expect(result.notFilled).toEqual([
      expect.objectContaining({ field: 'Pin', wanted: '••••••', shows: '••••' }),
      expect.objectContaining({ field: 'Member since', shows: '2019', reason: expect.stringMatching(/disabled/) }),
    ]);
    expect(JSON.stringify(result)).not.toMatch(/1234/);
    expect(result.note).toBe('"Save" was not pressed because some fields were not filled');
    expect(await tab.textContent('#out')).toBe('');
  });

  it('a disabled button, or none of that name: an error naming the buttons there', async () => {
    const { fails } = await account();
    expect(await fails({ dialog: 'css=#main', fields: { Username: 'x' }, button: 'Delete' })).toMatch(
      /the fields were filled, but .*Delete.* is disabled/,
    );
    expect(await fails({ dialog: 'css=#main', fields: { Username: 'x' }, button: 'Export' })).toMatch(
      /no button "Export" is in dialog "[^"]*"; buttons there: "Delete", "Save"/,
    );
  });

  it('the dialog by its exact title before a longer one, by part of it, by selector; the last one opened by default', async () => {
    const { tab, fill, fails } = await account();
    expect(await fill({ dialog: 'Address', fields: { Street: 'Main St 1' } })).toMatchObject({
      scope: 'dialog "Address"',
    });
    expect(await tab.inputValue('#addr-street')).toBe('Main St 1');
    expect(await tab.inputValue('#book-street')).toBe('');
    expect(await fill({ dialog: 'book', fields: { Street: 'Elm' } })).toMatchObject({
      scope: 'dialog "Address book"',
    });
    expect(await tab.inputValue('#book-street')).toBe('Elm');
    expect(await fill({ dialog: 'css=#book', fields: { Street: 'Oak' } })).toMatchObject({
      scope: 'dialog "Address book"',
    });
    expect(await fill({ fields: { Street: 'Pine Rd' } })).toMatchObject({ scope: 'dialog "Address"' });
    expect(await tab.inputValue('#addr-street')).toBe('Pine Rd');
    expect(await fails({ dialog: 'Payment', fields: { Street: 'x' } })).toMatch(
      /no open dialog matches "Payment"; open dialogs: "Address book", "Address"; call self_ui/,
    );
  });

  it('a submit the dialog refuses leaves it open, and says so; one it takes closes it', async () => {
    const { fill } = await account();
    expect(await fill({ dialog: 'Address', fields: { Street: 'Nowhere' }, button: 'Use' })).toMatchObject({
      clicked: expect.stringContaining('Use'),
      dialogOpen: true,
    });
    expect(await fill({ dialog: 'Address', fields: { Street: 'Main St 1' }, button: 'Use' })).toMatchObject({
      dialogOpen: false,
    });
  });

  it('fields that are only in a same-origin iframe are filled there', async () => {
    const { server, tab, fill } = await account();
    await tab.goto(server.url + '/framed');
    const result = await fill({ fields: { Email: 'ada@example.com', Secret: 'pa55word' } });
    expect(result).toMatchObject({ scope: 'the frame /login' });
    expect(result.filled).toEqual([
      expect.objectContaining({ field: 'Email', value: 'ada@example.com' }),
      expect.objectContaining({ field: 'Secret', value: '••••••••' }),
    ]);
    expect(await tab.frameLocator('iframe').locator('#email').inputValue()).toBe('ada@example.com');
  });
});
