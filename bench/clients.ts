import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { createBridge } from '../bridge/bridge.js';
import { startFixture } from '../test/helpers/fixture-app.js';
import { FORMS } from '../test/fixtures-matrix/forms.js';
import { closeRun, runClient, type ClientName, type ClientRun } from '../test/clients/drivers.js';
import { installedClient } from '../test/clients/install.js';
import { charsRead, toolDefinitions } from '../test/clients/report.js';
import { call, refIn, steps, type Step } from '../test/clients/scenario.js';
import { connectedPage } from '../test/page/harness.js';
import type { BenchRow } from './report.js';
import { serveReactFixture } from './tokens.js';

const CLIENTS: ClientName[] = ['claude-code', 'codex', 'gemini-cli'];
const GROUP = 'what the model reads (real clients)';

type Task = 'todo' | 'definitions' | 'mui' | 'hookForm';

/**
 * The same measures before issue 35 changed what the bridge returns (main at bfba05e, 2026-12-05): each new row
 * shows them beside its own value.
 */
const BEFORE: Record<ClientName, Record<Task, number>> = {
  'claude-code': { todo: 3182, definitions: 19426, mui: 939, hookForm: 1275 },
  codex: { todo: 3182, definitions: 17854, mui: 939, hookForm: 1275 },
  'gemini-cli': { todo: 1595, definitions: 23679, mui: 461, hookForm: 487 },
};

const before = (client: ClientName, task: Task) =>
  `before issue 35 (main at bfba05e): ${BEFORE[client][task].toLocaleString('en-US')}`;

type Measured = ReturnType<typeof charsRead>;

function measured(run: ClientRun): Measured {
  if (run.code !== 0 || run.stopped || run.model.errors.length)
    throw new Error(
      `${run.client} did not finish: ${run.stopped ?? `exit ${run.code}`} ${run.model.errors.map(String).join('; ')}\n${run.stderr.slice(-1500)}`,
    );
  return charsRead(run);
}

/** The task of the `tokens` section (test/fixtures/react-app, production build), driven by the client's model. */
async function todoTask(client: ClientName, browser: Browser): Promise<{ task: Measured; run: ClientRun }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aiti-bench-clients-'));
  const bridge = await createBridge({ port: 0, dataDir });
  const site = await serveReactFixture(bridge.url);
  const tab = await browser.newPage();
  try {
    await tab.goto(`${site.url}/`);
    await connectedPage(bridge, site.url, 20_000);
    const add =
      (task: string): Step =>
      () =>
        call('form_fill', { fields: { 'New task': task }, button: 'Add task' });
    const script = steps([
      () => call('page_snapshot'),
      add('Buy milk'),
      add('Call the plumber'),
      add('Water the plants twice'),
      (c) => call('page_exec', { cmd: 'Input.click', args: { target: refIn(c.reads[0], 'div', 'Edit profile') } }),
      async () => {
        await tab.waitForSelector('[role=dialog]');
        return call('form_fill', { fields: { 'Full name': 'Ada Lovelace', Role: 'Editor' }, button: 'Save' });
      },
      () => call('page_snapshot'),
    ]);
    const run = await runClient({ client, transport: 'stdio', bridgeUrl: bridge.url, script });
    try {
      const task = measured(run);
      if (!(await tab.textContent('#profile'))?.includes('Ada Lovelace'))
        throw new Error(`${client}: the profile was not saved`);
      return { task, run };
    } catch (error) {
      await closeRun(run);
      throw error;
    }
  } finally {
    await tab.close();
    await site.close();
    await bridge.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The MUI dialog of the `mui-form` section: open it, self_ui, one form_fill of five fields with Save. */
async function muiTask(client: ClientName): Promise<Measured> {
  const world = await startFixture('mui-app');
  try {
    const tab = await world.open();
    await tab.waitForSelector('#state');
    await connectedPage(world.bridge, world.url, 20_000);
    const script = steps([
      () => call('page_exec', { cmd: 'Input.click', args: { target: 'text=Edit profile' } }),
      () => call('self_ui'),
      () =>
        call('form_fill', {
          fields: { Name: 'Ada Lovelace', Email: 'ada@example.com', Role: 'Editor', Newsletter: true, City: 'Lisbon' },
          button: 'Save',
        }),
    ]);
    const run = await runClient({ client, transport: 'stdio', bridgeUrl: world.bridge.url, script });
    try {
      const saved = JSON.parse((await tab.textContent('#state')) ?? 'null') as { saved?: { city?: string } };
      if (saved.saved?.city !== 'Lisbon') throw new Error(`${client}: the MUI form was not saved`);
      return measured(run);
    } finally {
      await closeRun(run);
    }
  } finally {
    await world.close();
  }
}

/** The react-hook-form fixture of the `forms` section: self_ui, then one form_fill with every field. */
async function hookFormTask(client: ClientName): Promise<Measured> {
  const world = await startFixture('hook-form-app');
  try {
    const tab = await world.open();
    await tab.waitForSelector('#state');
    await connectedPage(world.bridge, world.url, 20_000);
    const form = FORMS['hook-form-app'];
    const script = steps([() => call('self_ui'), () => call('form_fill', form.fill)]);
    const run = await runClient({ client, transport: 'stdio', bridgeUrl: world.bridge.url, script });
    try {
      return measured(run);
    } finally {
      await closeRun(run);
    }
  } finally {
    await world.close();
  }
}

function row(client: ClientName, task: Task, name: string, m: Measured): BenchRow {
  return {
    group: GROUP,
    name: `${client}: ${name}`,
    value: m.read,
    unit: 'chars',
    note: `${m.calls} calls; our text ${m.ours.toLocaleString('en-US')} chars (×${(m.read / Math.max(1, m.ours)).toFixed(2)}); the client's own wrapping ${m.wrapping.toLocaleString('en-US')} chars more; ${before(client, task)}`,
  };
}

/**
 * Characters the model reads, per real client (test/clients: the pinned CLI, a stand-in model that plays the
 * task's calls, the shim registered with --register-shim): the TodoMVC-style task of `tokens`, the MUI dialog of
 * `mui-form`, the react-hook-form form of `forms`, and the size of the tool definitions the client sends.
 */
export async function clientsBench(browser: Browser, notes: string[]): Promise<BenchRow[]> {
  const out: BenchRow[] = [];
  for (const client of CLIENTS) {
    const installed = installedClient(client);
    if ('missing' in installed) {
      notes.push(`clients: ${client} not measured: ${installed.missing}`);
      continue;
    }
    const { task, run } = await todoTask(client, browser);
    try {
      out.push(row(client, 'todo', 'TodoMVC-style task on the React fixture (7 calls of the tokens section)', task));
      const defs = toolDefinitions(run);
      out.push({
        group: GROUP,
        name: `${client}: tool definitions as sent to the model`,
        value: defs.chars,
        unit: 'chars',
        note: `${defs.tools} tools; ${before(client, 'definitions')}`,
        ...(client === 'claude-code' ? { target: '≤ 9,000 (tool search off)', met: defs.chars <= 9000 } : {}),
      });
    } finally {
      await closeRun(run);
    }
    const mui = await muiTask(client);
    out.push(row(client, 'mui', 'MUI dialog: open, self_ui, fill five fields and save (3 calls)', mui));
    const hookForm = await hookFormTask(client);
    out.push(row(client, 'hookForm', 'react-hook-form fixture: self_ui + one form_fill (2 calls)', hookForm));
  }
  notes.push(
    `clients: each pinned client (${CLIENTS.map((c) => {
      const i = installedClient(c);
      return 'missing' in i ? c : `${c} ${i.version}`;
    }).join(
      ', ',
    )}) runs non-interactively from a fresh HOME with the shim registered by --register-shim and its model a stand-in on 127.0.0.1 that plays the task's calls (test/clients, docs/TESTING.md). "Characters" are the tool results as the client put them in front of the model, the client's own wrapping (Codex's "Wall time" header, Gemini CLI's <untrusted_context> tags, Claude Code's <system-reminder> blocks) counted apart; "our text" is what the bridge wrote (the results' text content). Tool definitions are the bridge's tools in the client's last model request, as JSON (Claude Code with ENABLE_TOOL_SEARCH=false; Codex with its mcp__aiti namespace, whose description is the server's instructions).`,
  );
  return out;
}
