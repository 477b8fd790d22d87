import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page as Tab } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { callTool, connectAgent, resultText, structured } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPage, ensurePageAgentBuilt, refOf } from './harness.js';
import { buildReactApp, openReactApp } from './vite-app.js';
import { serveFixture } from '../fixtures/server.js';

beforeAll(() => ensurePageAgentBuilt());

interface AxNode {
  nodeId: string;
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
  value?: { value?: string | number };
  childIds?: string[];
}

/**
 * The page's accessibility tree from Chromium (CDP Accessibility.getFullAXTree), one line per node the way
 * Chrome DevTools MCP prints its snapshot (`uid=1_N role "name" value="…"`), leaving out ignored nodes, unnamed
 * generic containers and the text boxes inside text.
 */
async function axSnapshot(tab: Tab): Promise<string> {
  const cdp = await tab.context().newCDPSession(tab);
  const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as unknown as { nodes: AxNode[] };
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const lines: string[] = [];
  let uid = 0;
  const visit = (node: AxNode, depth: number) => {
    const role = node.role?.value ?? '';
    const name = node.name?.value ?? '';
    const shown = !node.ignored && role !== 'InlineTextBox' && !(role === 'generic' && !name) && role !== 'none';
    if (shown) {
      const value = node.value?.value;
      lines.push(
        `${'  '.repeat(depth)}uid=1_${uid++} ${role}${name ? ` "${name}"` : ''}${value !== undefined && value !== '' ? ` value="${value}"` : ''}`,
      );
    }
    for (const id of node.childIds ?? []) {
      const child = byId.get(id);
      if (child) visit(child, shown ? depth + 1 : depth);
    }
  };
  const root = nodes[0];
  if (root) visit(root, 0);
  return lines.join('\n');
}

describe('a React 19 app on a Vite dev server, driven through the MCP tools', () => {
  it('snapshot → click by ref → type → form_fill the modal dialog → the app state changed; logs and network outlive the tab', async () => {
    const { bridge, tab, page } = await openReactApp();
    await tab.waitForSelector('h1');
    // detected again once React has rendered, and sent to the bridge with a new claim (GET /bridge/sessions shows it)
    await waitFor(() => page.frameworks.includes('React'), 5000, 'React reported to the bridge');
    const agent = await connectAgent(bridge.url);

    let snap = structured(await callTool(agent, 'page_snapshot'));
    let outline = String(snap.outline);
    expect(snap.frameworks).toEqual(expect.arrayContaining(['React', 'Vite']));
    expect(outline).toContain('heading[1] "Tasks"');
    expect(outline).toContain('listitem "Water the plants"');

    const exec = async (cmd: string, args: Record<string, unknown>) =>
      structured(await callTool(agent, 'page_exec', { cmd, args }));
    await exec('Input.type', { target: refOf(outline, 'textbox "New task"'), text: 'Buy milk' });
    await exec('Input.click', { target: refOf(outline, 'button "Add task"') });
    snap = structured(await callTool(agent, 'page_snapshot'));
    outline = String(snap.outline);
    expect(outline).toContain('listitem "Buy milk"');
    expect(outline).toMatch(/textbox "New task"(?! =)/); // the controlled input was cleared by React

    // a div with a React onClick is actionable: it gets a ref
    await exec('Input.click', { target: refOf(outline, '"Edit profile"') });
    await tab.waitForSelector('[role=dialog]');

    const ui = structured(await callTool(agent, 'self_ui'));
    const [dialog] = ui.dialogs as Array<{ title: string; modal: boolean; fields: Array<{ label: string }> }>;
    expect(dialog?.title).toBe('Edit profile');
    expect(dialog?.modal).toBe(true);
    expect(dialog?.fields.map((f) => f.label)).toEqual(['Full name', 'Email', 'Role', 'Send me the newsletter']);

    const filled = structured(
      await callTool(agent, 'form_fill', {
        fields: {
          'Full name': 'Ada Lovelace',
          Email: 'ada@example.com',
          Role: 'Editor',
          'Send me the newsletter': true,
        },
        button: 'Save',
      }),
    );
    expect(filled.dialogOpen).toBe(false);
    await waitFor(
      async () => (await tab.textContent('#profile'))?.includes('Ada Lovelace') ?? false,
      5000,
      'profile saved',
    );
    expect(await tab.textContent('#profile')).toBe('Profile: Ada Lovelace <ada@example.com> as editor (newsletter)');

    await tab.close();
    const logs = structured(await callTool(agent, 'page_logs'));
    expect((logs.entries as Array<{ text: string; level: string }>).map((e) => e.text)).toContain(
      'task added: Buy milk',
    );
    const network = structured(await callTool(agent, 'page_network'));
    const post = (network.entries as Array<{ method: string; url: string; status: number }>).find((e) =>
      e.url.endsWith('/api/profile'),
    );
    expect(post).toMatchObject({ method: 'POST', status: 200, type: 'fetch' });
  });

  it('with the modal open: the dialog and one line on what is behind it, no larger than the aria snapshot and under half the AX tree', async () => {
    const { bridge, tab } = await openReactApp();
    await tab.click('text=Edit profile');
    await tab.waitForSelector('[role=dialog]');
    const agent = await connectAgent(bridge.url);
    const result = await callTool(agent, 'page_snapshot');
    const outline = String(structured(result).outline);
    // what the model reads: the page line and the outline as plain lines
    const text = resultText(result);
    const aria = await tab.locator('body').ariaSnapshot();
    if (process.env.SHOW) console.error(`${text}\n---\n${aria}\n${text.length} vs ${aria.length}`);
    expect(text.length).toBeLessThanOrEqual(aria.length);
    const ax = await axSnapshot(tab);
    if (process.env.SHOW) console.error(`${ax}\n${outline.length} vs ${ax.length} (AX tree)`);
    expect(text.length).toBeLessThan(ax.length / 2);
    for (const control of [
      'textbox "Full name" ="Nobody"',
      'textbox:email "Email"',
      'combobox "Role" ="Viewer"',
      'checkbox "Send me the newsletter"',
      'button "Cancel"',
      'button "Save"',
    ])
      expect(outline).toMatch(new RegExp(`^  e\\d+ ${control.replace(/[()]/g, '\\$&')}`, 'm'));
    // the page behind the modal is one line, not its controls
    expect(outline).not.toContain('New task');
    expect(outline.split('\n').at(-1)).toBe('(behind it: "Tasks", inert)');
  });

  it('the empty app: every actionable element has a ref, wrappers have no line, names as the AX tree computes them', async () => {
    const { bridge, tab } = await openReactApp();
    await tab.waitForSelector('h1');
    // a style the app might have: the AX name stays "Edit profile", innerText would say "EDIT PROFILE"
    await tab.addStyleTag({ content: '.card { text-transform: uppercase }' });
    const agent = await connectAgent(bridge.url);
    const result = await callTool(agent, 'page_snapshot');
    const text = resultText(result);
    if (process.env.SHOW) console.error(`${text}\n${text.length} chars`);
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^p\d+ http:\/\/127\.0\.0\.1:\d+\/ "Tasks \(React fixture\)"$/);
    expect(lines.slice(1)).toEqual([
      'main',
      '  heading[1] "Tasks"',
      '  "Profile: Nobody <> as viewer"',
      expect.stringMatching(/^  e\d+ textbox "New task"$/),
      expect.stringMatching(/^  e\d+ button "Add task"$/),
      '  list "Task list"',
      '    listitem "Water the plants"',
      expect.stringMatching(/^  e\d+ div "Edit profile"$/),
    ]);
    // plain lines, not JSON; viewport and frameworks stay in structuredContent
    expect(text).not.toContain('\\"');
    expect(text).not.toContain('viewport');
    const snap = structured(result);
    expect(snap.viewport).toMatchObject({ width: expect.any(Number) });
    expect(snap.refs).toBe(3);
  });

  it('the production build (React in production mode) is driven the same way', async () => {
    const bridge = await startBridge();
    const dir = await buildReactApp(bridge.url);
    const api = (_req: IncomingMessage, res: ServerResponse) => void res.end('{"saved":true}');
    const site = await serveFixture({ '/api/profile': api }, { dir });
    const tab = await (await launchBrowser()).newPage();
    await tab.goto(site.url + '/');
    await connectedPage(bridge, site.url + '/');
    await tab.waitForSelector('h1');
    const agent = await connectAgent(bridge.url);
    const outline = String(structured(await callTool(agent, 'page_snapshot')).outline);
    await callTool(agent, 'page_exec', { cmd: 'Input.click', args: { target: refOf(outline, '"Edit profile"') } });
    await tab.waitForSelector('[role=dialog]');
    const filled = structured(
      await callTool(agent, 'form_fill', { fields: { 'Full name': 'Grace Hopper', Role: 'admin' }, button: 'Save' }),
    );
    expect(filled.dialogOpen).toBe(false);
    await waitFor(async () => (await tab.textContent('#profile'))?.includes('Grace') ?? false, 5000, 'profile saved');
    expect(await tab.textContent('#profile')).toBe('Profile: Grace Hopper <> as admin');
  });
});
