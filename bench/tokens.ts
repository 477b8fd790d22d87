import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { connectMcp } from './agent.js';
import { spawnBridge } from './bridge-process.js';
import { waitForPage } from './human.js';
import type { BenchRow } from './report.js';
import { buildReactFixture } from '../test/helpers/react-build.js';

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript' };

/** The characters a model reads from a tool result: every text block (the summary, the lines, the inbox notice). */
function readChars(result: CallToolResult): number {
  if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
  return result.content.reduce((n, c) => n + (c.type === 'text' ? c.text.length : 0), 0);
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The React fixture of the test suite, built for production with the agent's script tag, served from a temp dir. */
export async function serveReactFixture(bridgeUrl: string): Promise<{ url: string; close(): Promise<void> }> {
  const outDir = mkdtempSync(join(tmpdir(), 'aiti-bench-react-'));
  await buildReactFixture(bridgeUrl, join(outDir, 'site'), join(outDir, '.vite'));
  const site = join(outDir, 'site');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/api/profile') {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"saved":true}'));
      return;
    }
    const file = normalize(join(site, path === '/' ? 'index.html' : path));
    if (!file.startsWith(site + sep)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

async function tool(agent: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await agent.callTool({ name, arguments: args })) as CallToolResult;
}

/**
 * Characters an agent reads for one scripted task on the React fixture of the test suite, call by call: look at
 * the empty app, add three tasks, open the profile dialog, fill and save it, look again. Beside the snapshots:
 * Playwright's ariaSnapshot() of the same page state (what Playwright MCP hands agents).
 */
export async function tokensBench(browser: Browser, notes: string[]): Promise<BenchRow[]> {
  const bridge = await spawnBridge();
  const site = await serveReactFixture(bridge.url);
  const tab: Page = await browser.newPage();
  const agent = await connectMcp(bridge.url, 'bench-tokens', 'streamable');
  // a second agent measures snapshots between the steps without touching the first one's baseline
  const observer = await connectMcp(bridge.url, 'bench-observer', 'streamable');
  try {
    await tab.goto(site.url + '/');
    await tab.waitForSelector('h1');
    const pageId = await waitForPage(agent, site.url);
    const aria = () => tab.locator('body').ariaSnapshot();
    const steps: Array<{ label: string; chars: number }> = [];
    const step = async (label: string, name: string, args: Record<string, unknown>) => {
      const result = await tool(agent, name, { pageId, ...args });
      steps.push({ label, chars: readChars(result) });
      if (process.env.AITI_BENCH_SHOW) process.stderr.write(`--- ${label}\n${textOf(result)}\n`);
      return result;
    };

    const first = await step('page_snapshot of the empty app', 'page_snapshot', {});
    const emptyAria = (await aria()).length;
    const outline = String((first.structuredContent as { outline?: unknown }).outline);
    const editRef = /\b(e\d+) div "Edit profile"/.exec(outline)?.[1];
    if (!editRef) throw new Error(`no ref for "Edit profile" in the snapshot:\n${outline}`);
    for (const task of ['Buy milk', 'Call the plumber', 'Water the plants twice'])
      await step(`form_fill "New task" = "${task}", button "Add task"`, 'form_fill', {
        fields: { 'New task': task },
        button: 'Add task',
      });
    await step('page_exec Input.click "Edit profile" (opens the modal dialog)', 'page_exec', {
      cmd: 'Input.click',
      args: { target: editRef },
    });
    await tab.waitForSelector('[role=dialog]');
    const modalOurs = readChars(await tool(observer, 'page_snapshot', { pageId }));
    const modalAria = (await aria()).length;
    await step('form_fill the dialog (name, role) and Save', 'form_fill', {
      fields: { 'Full name': 'Ada Lovelace', Role: 'Editor' },
      button: 'Save',
    });
    await tab.waitForFunction(() => document.querySelector('#profile')?.textContent?.includes('Ada'));
    const last = await step('page_snapshot at the end', 'page_snapshot', {});
    const endAria = (await aria()).length;
    if (!textOf(last).includes('Call the plumber') || !textOf(last).includes('Ada Lovelace'))
      throw new Error(`the task did not happen; the last snapshot reads:\n${textOf(last)}`);

    const total = steps.reduce((n, s) => n + s.chars, 0);
    const emptyOurs = steps[0]?.chars ?? NaN;
    const endOurs = steps[steps.length - 1]?.chars ?? NaN;
    notes.push(
      `tokens: one scripted task on the React fixture of the test suite (test/fixtures/react-app, production build, served on loopback): page_snapshot; three times form_fill {"New task": …} with button "Add task"; page_exec Input.click on the "Edit profile" card (a div with a React onClick, opens a modal dialog); form_fill of the dialog with button "Save"; page_snapshot. "Characters read" is every text block of each tool result as the MCP client receives it (structuredContent, which models are not shown when text is present, is not counted). After an action the result carries the outline change since the agent's last snapshot. Playwright's ariaSnapshot() of body is taken in the same tab in the same state; the modal-open size of ours is a page_snapshot by a second agent, so the first agent's baseline is untouched.`,
    );
    const group = 'tokens';
    return [
      ...steps.map((s, i) => ({ group, name: `call ${i + 1}: ${s.label}`, value: s.chars, unit: 'chars' })),
      {
        group,
        name: `characters read for the whole task (${steps.length} calls)`,
        value: total,
        unit: 'chars',
        target: '≤ 2,200 in ≤ 7 calls',
        met: total <= 2200 && steps.length <= 7,
      },
      {
        group,
        name: 'page_snapshot of the empty app (text read)',
        value: emptyOurs,
        unit: 'chars',
        target: '≤ 300',
        met: emptyOurs <= 300,
      },
      { group, name: 'Playwright ariaSnapshot() of the empty app', value: emptyAria, unit: 'chars' },
      {
        group,
        name: 'page_snapshot with the modal dialog open (text read)',
        value: modalOurs,
        unit: 'chars',
        target: `≤ Playwright's (${modalAria})`,
        met: modalOurs <= modalAria,
      },
      { group, name: 'Playwright ariaSnapshot() with the modal dialog open', value: modalAria, unit: 'chars' },
      { group, name: 'page_snapshot at the end of the task (text read)', value: endOurs, unit: 'chars' },
      { group, name: 'Playwright ariaSnapshot() at the end of the task', value: endAria, unit: 'chars' },
    ];
  } finally {
    await agent.close().catch(() => undefined);
    await observer.close().catch(() => undefined);
    await tab.close();
    await site.close();
    await bridge.stop();
  }
}
