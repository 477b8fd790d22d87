import { describe, expect, it } from 'vitest';
import { CLIENT_TIMEOUT_MS } from '../../bridge/protocol/index.js';
import { http, tempDir } from '../helpers/bridge.js';
import { CHILD_TOKEN, kill, spawnBridge } from '../helpers/child-bridge.js';
import { callTool, connectAgent, resultText } from '../helpers/mcp.js';
import { windowState } from '../helpers/window.js';

const openAsks = async (url: string) => (await windowState(url, CHILD_TOKEN)).asks;

/**
 * A sync ask handed over to the inbox because its client was about to stop waiting (Asks.handOver) told the agent
 * "still open: the answer comes in aiti_inbox" — a promise that must survive a crash. Its hand-over is journaled, so
 * a bridge killed and started again shows it again as an async ask and the human's answer reaches the inbox; it
 * used to be restored as a sync ask, ended "the bridge restarted".
 */
describe('an ask handed over to the inbox, across a SIGKILL', () => {
  it('stays open after the restart, and its answer arrives in aiti_inbox', async () => {
    const dataDir = tempDir();
    const first = await spawnBridge(dataDir);
    const agent = await connectAgent(first.url, { clientName: 'impatient', structured: false });
    const early = await agent.callTool({
      name: 'user_confirm',
      arguments: { prompt: 'Deploy the release?', timeoutMs: 600_000 },
      _meta: { [CLIENT_TIMEOUT_MS]: 4000 },
    });
    const [card] = await openAsks(first.url);
    expect(card?.askId).toBeDefined();
    const askId = card?.askId ?? '';
    expect(resultText(early as Parameters<typeof resultText>[0])).toMatch(/still open on their screen/);

    await kill(first.child);
    const second = await spawnBridge(dataDir, { port: first.port });
    // shown again, waiting for the human, not ended by the restart
    expect((await openAsks(second.url)).map((a) => a.askId)).toEqual([askId]);
    const answered = await http(`${second.url}/bridge/answer`, {
      token: CHILD_TOKEN,
      body: { askId, action: 'answer', value: true, note: 'ship it' },
    });
    expect(answered.status).toBe(200);
    // the agent's session outlived the restart (the same client, on the same port)
    const inbox = resultText(await callTool(agent, 'aiti_inbox'));
    expect(inbox).toContain(askId);
    expect(inbox).toContain('ship it');
    expect(inbox).not.toMatch(/restarted/);
  });
});
