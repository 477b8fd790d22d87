import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  PageCommands,
  PUBLIC_COMMANDS,
  pageCommand,
  type AskView,
  type Json,
  type PageCommandName,
} from '../../bridge/protocol/index.js';
import type { Bridge } from '../../bridge/bridge.js';
import type { Page } from '../../bridge/pages/registry.js';
import { pageCommandDanger } from '../../bridge/asks/page-gate.js';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { windowClient } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

/** A page that records what it ran. */
async function recordingPage(bridge: Bridge) {
  const ran: Array<{ cmd: string; args: Json }> = [];
  const page = await ScriptedPage.connect(bridge.url, {
    url: 'http://localhost:3000/app',
    handler: (cmd, args) => {
      ran.push({ cmd, args });
      return cmd === 'Runtime.evaluate' ? 42 : { ok: true };
    },
  });
  return { page, ran };
}

async function exec(agent: Awaited<ReturnType<typeof connectAgent>>, cmd: string, args: Record<string, Json>) {
  return (await agent.callTool({ name: 'page_exec', arguments: { cmd, args } }, undefined, {
    timeout: 30_000,
  })) as CallToolResult;
}

describe('dangerous page commands wait for the human', () => {
  it('Runtime.evaluate runs only after the human confirms it on a page_command card', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const { page, ran } = await recordingPage(bridge);
    const agent = await connectAgent(bridge.url, { clientName: 'test-agent' });
    const result = exec(agent, 'Runtime.evaluate', { expression: '6 * 7' });
    const card = await window.nextAsk();
    expect(card).toMatchObject({
      kind: 'page_command',
      agentId: 'test-agent',
      pageId: page.pageId,
      command: { cmd: 'Runtime.evaluate', args: { expression: '6 * 7' } },
    });
    // a harmless command sent now reaches the page after anything sent before it
    expect((await exec(agent, 'DOM.getText', {})).isError ?? false).toBe(false);
    expect(ran).toEqual([{ cmd: 'DOM.getText', args: {} }]);
    await window.act({ askId: card.askId, action: 'answer', value: true });
    const done = await result;
    expect(done.isError ?? false).toBe(false);
    expect(JSON.stringify(done.structuredContent)).toContain('42');
    expect(ran.slice(1)).toEqual([{ cmd: 'Runtime.evaluate', args: { expression: '6 * 7' } }]);
  });

  it('a no or a rejection means the command never runs, and the agent is told why', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const { ran } = await recordingPage(bridge);
    const agent = await connectAgent(bridge.url);

    const declined = exec(agent, 'Storage.set', { area: 'local', key: 'token', value: 'x' });
    const first = await window.nextAsk();
    expect(first.prompt).toContain('write local storage "token"');
    await window.act({ askId: first.askId, action: 'answer', value: false, note: 'not the auth token' });
    const no = await declined;
    expect(no.isError).toBe(true);
    expect(no.structuredContent).toMatchObject({
      error: expect.stringMatching(/did not allow Storage.set .*not the auth token.*did not run/),
    });

    const rejected = exec(agent, 'Runtime.evaluate', { expression: 'localStorage.clear()' });
    const second = await window.nextAsk();
    await window.act({ askId: second.askId, action: 'reject', reason: 'wrong_approach', note: 'use the UI' });
    const rej = await rejected;
    expect(rej.isError).toBe(true);
    expect(rej.structuredContent).toMatchObject({
      error: expect.stringMatching(/did not run.*wrong_approach.*use the UI/),
    });
    expect(ran).toEqual([]);
  });

  it('"allow for this page" lets the same command run again without asking, on that page only', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const { ran } = await recordingPage(bridge);
    const agent = await connectAgent(bridge.url);
    const first = exec(agent, 'Runtime.evaluate', { expression: '1' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: true, remember: true });
    expect((await first).isError ?? false).toBe(false);
    const again = await exec(agent, 'Runtime.evaluate', { expression: '2' });
    expect(again.isError ?? false).toBe(false);
    expect(ran.map((r) => r.args)).toEqual([{ expression: '1' }, { expression: '2' }]);
    expect(window.stream.events.filter((e) => e.event === 'ask')).toHaveLength(1);
    // another dangerous kind still asks
    const storage = exec(agent, 'Storage.set', { area: 'session', key: 'k', value: 'v' });
    const next = await window.nextAsk();
    expect(next.command?.cmd).toBe('Storage.set');
    await window.act({ askId: next.askId, action: 'answer', value: true });
    expect((await storage).isError ?? false).toBe(false);
  });

  it('harmless commands and same-origin navigations do not ask', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const { ran } = await recordingPage(bridge);
    const agent = await connectAgent(bridge.url);
    expect((await exec(agent, 'DOM.getText', {})).isError ?? false).toBe(false);
    expect((await exec(agent, 'Page.navigate', { url: '/settings' })).isError ?? false).toBe(false);
    expect(ran.map((r) => r.cmd)).toEqual(['DOM.getText', 'Page.navigate']);
    expect(window.stream.events.filter((e) => e.event === 'ask')).toEqual([]);
  });
});

describe('what counts as dangerous', () => {
  const page = { pageId: 'p1', url: 'http://localhost:3000/app' } as Page;

  it('script evaluation, storage writes and navigations to another origin', () => {
    expect(pageCommandDanger(page, 'Runtime.evaluate', { expression: '1' })?.what).toBe('run a script in the page');
    expect(pageCommandDanger(page, 'Storage.set', { area: 'cookie', key: 'sid', value: null })?.what).toBe(
      'write cookie storage "sid"',
    );
    expect(pageCommandDanger(page, 'Page.navigate', { url: 'https://example.com/' })?.what).toBe(
      'navigate away from http://localhost:3000 to https://example.com/',
    );
    expect(pageCommandDanger(page, 'Page.navigate', { url: 'javascript:alert(1)' })).toBeDefined();
  });

  it('not reads, clicks or navigations within the page’s origin', () => {
    expect(pageCommandDanger(page, 'Storage.get', { area: 'local' })).toBeUndefined();
    expect(pageCommandDanger(page, 'Input.click', { target: 'e1' })).toBeUndefined();
    expect(pageCommandDanger(page, 'Page.navigate', { url: '/other?x=1' })).toBeUndefined();
    expect(pageCommandDanger(page, 'Page.navigate', { url: 'http://localhost:3000/b' })).toBeUndefined();
  });

  it('a page without a URL: any navigation is dangerous, and the human is told which page, not an empty URL', () => {
    const nowhere = { pageId: 'p4', url: '' } as Page;
    expect(pageCommandDanger(nowhere, 'Page.navigate', { url: 'https://example.com/' })?.what).toBe(
      'navigate away from page p4 (its URL unknown) to https://example.com/',
    );
    expect(pageCommandDanger(nowhere, 'Page.navigate', { url: '/settings' })).toBeDefined();
  });
});

interface ArgsSchema {
  type?: string | string[];
  enum?: Json[];
  anyOf?: ArgsSchema[];
  items?: ArgsSchema;
  properties?: Record<string, ArgsSchema>;
}

/** A valid value for one argument: the first of an enum, else the smallest of its type. */
function sampleOf(schema: ArgsSchema): Json {
  if (schema.enum?.length) return schema.enum[0] ?? null;
  if (schema.anyOf?.[0]) return sampleOf(schema.anyOf[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [schema.items ? sampleOf(schema.items) : 'x'];
  return 'e1';
}

/**
 * Arguments every command accepts, built from its own schema (every argument given), so a new command needs
 * nothing here; a navigation gets a URL on another origin than the page's, the case that makes it dangerous.
 */
function sampleArgs(name: PageCommandName): Record<string, Json> {
  const schema = z.toJSONSchema(PageCommands[name], { io: 'input', unrepresentable: 'any' }) as ArgsSchema;
  const args = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, prop]) => [key, sampleOf(prop)]));
  if ('url' in args) args.url = 'https://elsewhere.example/';
  if ('waitFor' in args) delete args.waitFor;
  return args;
}

describe('the gate follows the command descriptors', () => {
  it('every page_exec command its descriptor calls dangerous waits for a card, and no other command does', async () => {
    const bridge = await startBridge();
    const window = await windowClient(bridge);
    const { ran } = await recordingPage(bridge);
    const agent = await connectAgent(bridge.url);
    const asks = () => window.stream.events.filter((e) => e.event === 'ask').map((e) => e.data as AskView);
    const seen: Record<string, string> = {};
    for (const name of PUBLIC_COMMANDS) {
      const args = sampleArgs(name);
      expect(PageCommands[name].safeParse(args).success, `sample args of ${name}`).toBe(true);
      const before = asks().length;
      let answer: CallToolResult | undefined;
      const call = exec(agent, name, args).then((result) => (answer = result));
      await waitFor(() => answer !== undefined || asks().length > before, 10_000, `${name} to run or to ask`);
      const card = asks()[before];
      if (card) {
        expect(card, name).toMatchObject({ kind: 'page_command', command: { cmd: name } });
        await window.act({ askId: card.askId, action: 'answer', value: false });
        await call;
        expect(answer?.isError, name).toBe(true);
      } else expect(answer?.isError ?? false, `${name}: ${JSON.stringify(answer?.structuredContent)}`).toBe(false);
      seen[name] = card ? 'asked' : 'ran';
    }
    const expected = Object.fromEntries(
      PUBLIC_COMMANDS.map((name) => [name, pageCommand(name).danger === 'none' ? 'ran' : 'asked']),
    );
    expect(seen).toEqual(expected);
    expect(Object.values(seen)).toContain('asked');
    // a command the human said no to never reached the page
    expect(ran.map((r) => r.cmd).sort()).toEqual(PUBLIC_COMMANDS.filter((name) => expected[name] === 'ran').sort());
  });
});
