import { describe, expect, it } from 'vitest';
import type { AskView } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { SseClient } from '../helpers/sse.js';

describe('the SSE test client the reliability tests poll with', () => {
  it('a wait that timed out does not swallow the next event', async () => {
    const bridge = await startBridge();
    const window = await SseClient.open(`${bridge.url}/bridge/sse?role=ai&token=${bridge.token}`);
    await window.next('state');
    await expect(window.next('ask', 50)).rejects.toThrow(/no "ask" event within 50 ms/);
    const agent = await connectAgent(bridge.url);
    void agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Ship it?' } }).catch(() => undefined);
    expect(((await window.next('ask')).data as AskView).prompt).toBe('Ship it?');
  });
});
