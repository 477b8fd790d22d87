import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText, structured } from '../helpers/mcp.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/**
 * Widgets known only by their relations: a select that is a plain button named by `<label for>` and pointing at its
 * list with aria-controls (no aria-haspopup), and a multi-select whose combobox controls an overlay container that
 * holds the `aria-multiselectable` listbox, its values shown as tags with a remove button each.
 */
const PROFILE = `
  <form id="profile">
    <label for="name">Name</label> <input id="name">
    <label for="country-btn">Country</label>
    <button type="button" id="country-btn" aria-expanded="false" aria-controls="country-list">Choose…</button>
    <ul id="country-list" role="listbox" hidden>
      <li role="option" data-value="jp">Japan</li>
      <li role="option" data-value="pt">Portugal</li>
    </ul>
    <span id="skills-label">Skills</span>
    <div class="ms"><span id="tags"></span>
      <input id="skills" role="combobox" aria-labelledby="skills-label" aria-controls="skills-overlay" aria-expanded="false" readonly>
    </div>
    <button id="save">Save</button>
  </form>
  <div id="skills-overlay" hidden>
    <ul role="listbox" aria-multiselectable="true">
      <li role="option" aria-selected="false">React</li>
      <li role="option" aria-selected="false">Vue</li>
      <li role="option" aria-selected="false">Svelte</li>
    </ul>
  </div>
  <pre id="state">{"saved":null}</pre>
  <script>
    const state = { country: '', skills: [] };
    const $ = (id) => document.getElementById(id);
    const country = $('country-btn');
    const openCountry = (open) => { $('country-list').hidden = !open; country.setAttribute('aria-expanded', String(open)); };
    country.addEventListener('click', () => openCountry($('country-list').hidden));
    for (const option of $('country-list').children)
      option.addEventListener('click', () => {
        state.country = option.dataset.value;
        country.textContent = option.textContent;
        openCountry(false);
      });
    const skills = $('skills');
    const openSkills = (open) => { $('skills-overlay').hidden = !open; skills.setAttribute('aria-expanded', String(open)); };
    skills.addEventListener('click', () => openSkills(true));
    skills.addEventListener('keydown', (e) => { if (e.key === 'Escape') openSkills(false); });
    const render = () => {
      $('tags').innerHTML = '';
      for (const option of $('skills-overlay').querySelectorAll('[role=option]')) {
        const on = state.skills.includes(option.textContent);
        option.setAttribute('aria-selected', String(on));
        if (!on) continue;
        const tag = document.createElement('span');
        tag.textContent = option.textContent;
        const remove = document.createElement('button');
        remove.type = 'button';
        remove.textContent = '×';
        remove.setAttribute('aria-label', 'Remove ' + option.textContent);
        remove.addEventListener('click', () => { state.skills = state.skills.filter((s) => s !== option.textContent); render(); });
        tag.append(remove);
        $('tags').append(tag);
      }
    };
    for (const option of $('skills-overlay').querySelectorAll('[role=option]'))
      option.addEventListener('click', () => {
        const label = option.textContent;
        state.skills = state.skills.includes(label) ? state.skills.filter((s) => s !== label) : [...state.skills, label];
        render();
      });
    $('profile').addEventListener('submit', (e) => {
      e.preventDefault();
      $('state').textContent = JSON.stringify({ saved: { name: $('name').value, country: state.country, skills: state.skills } });
    });
  </script>`;

async function profile() {
  const bridge = await startBridge();
  const server = await serveFixture({
    '/': `<!doctype html><title>Profile</title>${agentTag(bridge)}<body>${PROFILE}</body>`,
  });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url);
  const page = await connectedPage(bridge, server.url);
  const agent = await connectAgent(bridge.url);
  const tool = async (name: string, args: Record<string, unknown> = {}) => callTool(agent, name, args);
  const saved = async () => (JSON.parse((await tab.textContent('#state')) ?? 'null') as { saved: unknown }).saved;
  return { tab, page, bridge, tool, saved };
}

describe('widgets by their relations', () => {
  it('self_ui lists a button named by label[for] that controls a list as a combobox field, not a button', async () => {
    const { tool } = await profile();
    const [form] = structured(await tool('self_ui')).forms as Array<{
      fields: Array<{ label: string; type: string }>;
      buttons: Array<{ label: string }>;
    }>;
    expect(form?.fields.map((f) => [f.label, f.type])).toEqual([
      ['Name', 'text'],
      ['Country', 'combobox'],
      ['Skills', 'combobox'],
    ]);
    expect(form?.buttons.map((b) => b.label)).toEqual(['Save']);
  });

  it('one form_fill sets the button select and the multi-select whose listbox sits in the container it controls', async () => {
    const { tool, saved } = await profile();
    const filled = structured(
      await tool('form_fill', {
        fields: { Name: 'Ada', Country: 'Japan', Skills: ['React', 'Svelte'] },
        button: 'Save',
      }),
    );
    expect(filled.notFilled).toBeUndefined();
    expect(await saved()).toEqual({ name: 'Ada', country: 'jp', skills: ['React', 'Svelte'] });
  });

  it('Input.select chooses in the button select by its ref', async () => {
    const { bridge, page, tool, saved, tab } = await profile();
    const outline = String(structured(await tool('page_snapshot')).outline);
    const ref = /\b(e\d+) combobox "Country"/.exec(outline)?.[1];
    expect(ref, outline).toBeDefined();
    expect(await exec(bridge, page, 'Input.select', { target: ref ?? '', values: ['Portugal'] })).toMatchObject({
      selected: ['Portugal'],
      shows: 'Portugal',
    });
    await tab.click('#save');
    expect(await saved()).toMatchObject({ country: 'pt' });
  });

  it('a field it cannot fill is reported with the options the page offers; a second call with only it finishes', async () => {
    const { tool, saved } = await profile();
    const first = await tool('form_fill', {
      fields: { Name: 'Ada', Country: 'Atlantis', Skills: ['Vue'] },
      button: 'Save',
    });
    expect(structured(first).notFilled).toEqual([
      expect.objectContaining({ field: 'Country', wanted: 'Atlantis', options: ['Japan', 'Portugal'] }),
    ]);
    expect(resultText(first)).toMatch(/^NOT filled: "Country"/);
    expect(await saved()).toBeNull();
    const second = structured(await tool('form_fill', { fields: { Country: 'Portugal' }, button: 'Save' }));
    expect(second.notFilled).toBeUndefined();
    expect(await saved()).toEqual({ name: 'Ada', country: 'pt', skills: ['Vue'] });
  });

  it('pressAnyway presses the button though a field was not filled, and the result says so', async () => {
    const { tool, saved } = await profile();
    const result = structured(
      await tool('form_fill', { fields: { Name: 'Bo', Country: 'Atlantis' }, button: 'Save', pressAnyway: true }),
    );
    expect(result.notFilled).toEqual([expect.objectContaining({ field: 'Country' })]);
    expect(result.note).toBe('"Save" was pressed although some fields were not filled (pressAnyway)');
    expect(result.clicked).toMatch(/Save/);
    expect(await saved()).toEqual({ name: 'Bo', country: '', skills: [] });
  });
});
