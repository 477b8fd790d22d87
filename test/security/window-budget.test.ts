import { describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createBridge } from '../../bridge/bridge.js';
import { ASK_LIMITS, type AskView, type StateEvent } from '../../bridge/protocol/index.js';
import { DEFAULT_LIMITS } from '../../bridge/limits.js';
import { http, onCleanup, startBridge, tempDir } from '../helpers/bridge.js';
import { SseClient } from '../helpers/sse.js';
import { launchBrowser } from '../helpers/browser.js';
import { waitFor } from '../helpers/wait.js';
import { ensureWindowBuilt } from '../window/build-window.js';
import { connectAgent } from '../helpers/mcp.js';
import { windowClient } from '../helpers/window.js';

const text = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const MB = 1024 * 1024;

describe("one agent cannot take the human's window from the others", () => {
  it('a 3.6 MB prompt, a long choice or defaultValue is refused with an error naming its limit', async () => {
    const bridge = await startBridge();
    const agent = await connectAgent(bridge.url, { clientName: 'flooder' });
    const huge = await agent.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'x'.repeat(3.6 * MB), async: true },
    });
    expect(huge.isError).toBe(true);
    expect(text(huge)).toMatch(/prompt.*at most 32,000 characters \(limit promptChars\)/);
    const choice = await agent.callTool({
      name: 'user_choose',
      arguments: { prompt: 'pick', choices: ['a', 'b'.repeat(ASK_LIMITS.choiceChars + 1)], async: true },
    });
    expect(text(choice)).toContain('limit choiceChars');
    const input = await agent.callTool({
      name: 'user_input',
      arguments: { prompt: 'name?', defaultValue: 'd'.repeat(ASK_LIMITS.defaultValueChars + 1), async: true },
    });
    expect(text(input)).toContain('limit defaultValueChars');
    expect(bridge.context.asks.views()).toEqual([]);
  });

  it("an agent's open asks stop at its byte budget, and another agent's ask still reaches the window and is answered", async () => {
    const bridge = await startBridge();
    const flooder = await connectAgent(bridge.url, { clientName: 'flooder' });
    const window = await windowClient(bridge);
    let opened = 0;
    let refusal = '';
    for (let i = 0; i < 40 && !refusal; i++) {
      const result = await flooder.callTool({
        name: 'user_confirm',
        arguments: { prompt: `${i} ${'x'.repeat(ASK_LIMITS.promptChars - 10)}`, async: true },
      });
      if (result.isError) refusal = text(result);
      else opened++;
    }
    expect(refusal).toContain('limit askBytesPerAgent');
    expect(opened).toBe(Math.floor(DEFAULT_LIMITS.askBytesPerAgent / (ASK_LIMITS.promptChars + 200)));

    const helper = await connectAgent(bridge.url, { clientName: 'helper' });
    const answer = helper.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy to staging?' } });
    let ask: AskView | undefined;
    while (ask?.agentId !== 'helper') ask = await window.nextAsk();
    expect((await window.act({ askId: ask.askId, action: 'answer', value: true })).status).toBe(200);
    expect(text(await answer)).toContain('the human answered true');
    expect(bridge.context.limits.report().askBytesPerAgent.refused).toBe(1);
  });

  it('with four 3.6 MB asks restored from disk, a window reading at full speed gets every ask and answers the others', async () => {
    const dataDir = tempDir();
    // an older bridge, without the budget, took them and kept them on disk
    const old = await createBridge({ port: 0, dataDir, limits: { askBytesPerAgent: 64 * MB, asksPerAgent: 10 } });
    for (let i = 0; i < 4; i++) {
      const ask = old.context.asks.create({
        kind: 'user_confirm',
        agentId: 'flooder',
        prompt: `${i}${'x'.repeat(3.6 * MB)}`,
        async: true,
        timeoutMs: 3_600_000,
      });
      await ask.opened;
    }
    const other = old.context.asks.create({
      kind: 'user_confirm',
      agentId: 'helper',
      prompt: 'Deploy to staging?',
      async: true,
      timeoutMs: 3_600_000,
    });
    await other.opened;
    await old.close();

    const bridge = await createBridge({ port: 0, dataDir });
    onCleanup(() => bridge.close());
    const stream = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
    // 14 MiB of state: the time is the test's own JSON parsing, under the load of a shared machine
    const state = (await stream.next('state', 120_000)).data as StateEvent;
    expect(state.asks.map((a) => a.agentId).sort()).toEqual(['flooder', 'flooder', 'flooder', 'flooder', 'helper']);
    const answered = await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: other.askId, action: 'answer', value: true },
    });
    expect(answered.status).toBe(200);
    expect((await stream.next('ask_update')).data).toMatchObject({ askId: other.askId, status: 'answered' });
    expect(stream.closed).toBe(false);
    expect(bridge.context.limits.report().sseReaders.refused).toBe(0);

    // the window itself, in Chromium: every card shows, and the other agent's is answered with a click
    await ensureWindowBuilt();
    const again = bridge.context.asks.create({
      kind: 'user_confirm',
      agentId: 'helper',
      prompt: 'And production?',
      async: true,
      timeoutMs: 3_600_000,
    });
    await again.opened;
    const browser = await launchBrowser();
    const page = await browser.newPage();
    await page.goto(bridge.uiUrl);
    const card = page.getByRole('article', { name: 'Confirm from helper' });
    const yes = card.getByRole('button', { name: /Yes/ });
    await yes.waitFor({ timeout: 120_000 });
    // as the human would: a click the window held (the card had just moved while four huge cards laid out, and it
    // says so) is made again, a moment later
    let clickedAt = 0;
    await waitFor(
      async () => {
        if (bridge.context.asks.get(again.askId) === undefined) return true;
        if (Date.now() - clickedAt > 2_000) {
          clickedAt = Date.now();
          await yes.click({ timeout: 5_000 }).catch(() => undefined);
        }
        return false;
      },
      60_000,
      'the answer at the bridge',
    );
    expect(await page.getByRole('article', { name: 'Confirm from flooder' }).count()).toBe(4);
  }, 300_000);
});
