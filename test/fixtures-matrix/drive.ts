import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Page as Tab } from 'playwright-core';
import type { Page } from '../../bridge/pages/registry.js';
import { onCleanup } from '../helpers/bridge.js';
import type { FixtureWorld } from '../helpers/fixture-app.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';
import { connectedPage } from '../page/harness.js';

/**
 * An agent on one fixture tab: the official MCP SDK client bound to that tab's pageId, counting the tool calls it
 * makes and the characters it reads (the text content of every result), as an agent's context would.
 */
export interface Driver {
  tab: Tab;
  page: Page;
  agent: Client;
  calls: number;
  chars: number;
  /** calls a tool for this page; throws with the text when it fails */
  tool(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** calls a tool for this page and returns the failed result's text (throws when it succeeded) */
  toolError(name: string, args?: Record<string, unknown>): Promise<string>;
  exec(cmd: string, args: Record<string, unknown>, frameId?: string): Promise<Record<string, unknown>>;
  /** the app's own state, as the app renders it in `selector` (JSON) */
  state(selector?: string, frame?: string): Promise<unknown>;
  /** waits until the app has saved (its state's `saved` is set) and returns what it saved */
  saved(): Promise<unknown>;
}

export async function drive(world: FixtureWorld, path = ''): Promise<Driver> {
  const tab = await world.open(path);
  onCleanup(() => tab.close().catch(() => undefined));
  const page = await connectedPage(world.bridge, new URL(path, world.url).href);
  const agent = await connectAgent(world.bridge.url);
  const call = async (name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const result = await callTool(agent, name, { pageId: page.pageId, ...args });
    driver.calls++;
    driver.chars += resultText(result).length;
    if (process.env.SHOW) console.error(`${name} → ${resultText(result)}`);
    return result;
  };
  const driver: Driver = {
    tab,
    page,
    agent,
    calls: 0,
    chars: 0,
    async tool(name, args = {}) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${resultText(result)}`);
      return (result.structuredContent ?? {}) as Record<string, unknown>;
    },
    async toolError(name, args = {}) {
      const result = await call(name, args);
      if (!result.isError) throw new Error(`${name} succeeded: ${resultText(result)}`);
      return resultText(result);
    },
    async exec(cmd, args, frameId) {
      const answer = await driver.tool('page_exec', { cmd, args, ...(frameId ? { frameId } : {}) });
      return (answer.result ?? {}) as Record<string, unknown>;
    },
    async state(selector = '#state', frame) {
      const scope = frame ? tab.frameLocator(frame) : tab;
      return JSON.parse((await scope.locator(selector).textContent()) ?? 'null') as unknown;
    },
    async saved() {
      let saved: unknown;
      await waitFor(
        async () => {
          saved = ((await driver.state()) as { saved?: unknown } | null)?.saved;
          return saved !== null && saved !== undefined;
        },
        5000,
        'saved',
      );
      return saved;
    },
  };
  return driver;
}

/** Waits until the page's frame `frameId` (an iframe running the agent) is connected to the bridge. */
export function frameJoined(page: Page, frameId = 'f1'): Promise<void> {
  return waitFor(() => Boolean(page.frames.get(frameId)?.stream?.isOpen), 10_000, `frame ${frameId} joined`);
}

/** The ref on the outline line that contains `text`. */
export function refOn(outline: string, text: string): string {
  // names are compared without case: CSS text-transform makes the shown text differ from the DOM's
  const line = outline.split('\n').find((l) => l.toLowerCase().includes(text.toLowerCase()));
  const ref = line ? /\b((?:f[\d.]+:)?e\d+)\b/.exec(line)?.[1] : undefined;
  if (!ref) throw new Error(`no ref on a line with ${text} in:\n${outline}`);
  return ref;
}
