import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import type { Json } from '../../bridge/protocol/index.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { ScriptedPage } from '../helpers/scripted-page.js';
import { openWindow } from '../helpers/window.js';

/**
 * The page gate's answers an agent reads, beyond yes and no (page-gate.test.ts): the human away, "allow once"
 * not remembered, a plain no without a note,.
 */

async function setup(url = 'http://localhost:3000/app') {
  const bridge = await startBridge();
  const window = await openWindow(bridge);
  const ran: string[] = [];
  const page = await ScriptedPage.connect(bridge.url, {
    url,
    handler: (cmd) => {
      ran.push(cmd);
      return cmd === 'Runtime.evaluate' ? 42 : { ok: true };
    },
  });
  const agent = await connectAgent(bridge.url, { clientName: 'gate-agent' });
  const exec = async (cmd: string, args: Record<string, Json>) =>
    (await agent.callTool({ name: 'page_exec', arguments: { cmd, args } }, undefined, {
      timeout: 30_000,
    })) as CallToolResult;
  return { bridge, window, page, ran, exec };
}

const errorOf = (result: CallToolResult) => (result.structuredContent as { error?: string } | undefined)?.error ?? '';

async function away(bridge: Bridge, value: boolean) {
  expect((await http(`${bridge.url}/bridge/presence`, { token: bridge.token, body: { away: value } })).status).toBe(
    200,
  );
}

describe('the page gate', () => {
  it('with the human away, a dangerous command does not run, and the agent is told why', async () => {
    const { bridge, ran, exec } = await setup();
    await away(bridge, true);
    const result = await exec('Runtime.evaluate', { expression: 'document.cookie' });
    expect(result.isError).toBe(true);
    expect(errorOf(result)).toBe(
      "page_exec: Runtime.evaluate needs the human's confirmation (it would run a script in the page), but they are marked away; it did not run. Carry on without it, or ask again when they are back (user_presence).",
    );
    expect(ran).toEqual([]);
    // harmless commands still run while away
    expect((await exec('DOM.getText', {})).isError ?? false).toBe(false);
    expect(ran).toEqual(['DOM.getText']);
  });

  it('"allow once" is not remembered: the same command asks again', async () => {
    const { window, ran, exec } = await setup();
    const first = exec('Runtime.evaluate', { expression: '1' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: true });
    expect((await first).isError ?? false).toBe(false);
    const second = exec('Runtime.evaluate', { expression: '2' });
    const again = await window.nextAsk();
    expect(again.command?.cmd).toBe('Runtime.evaluate');
    await window.act({ askId: again.askId, action: 'answer', value: false });
    expect((await second).isError).toBe(true);
    expect(ran).toEqual(['Runtime.evaluate']);
  });

  it('a plain no, without a note, is reported in those words', async () => {
    const { page, window, exec } = await setup();
    const call = exec('Storage.set', { area: 'local', key: 'k', value: 'v' });
    const card = await window.nextAsk();
    await window.act({ askId: card.askId, action: 'answer', value: false });
    expect(errorOf(await call)).toBe(
      `page_exec: the human did not allow Storage.set on page ${page.pageId}; it did not run. Do not retry it; find another way or ask them what they prefer.`,
    );
  });
});
