import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApi } from '../../renderer/src/api.js';
import { setLanguage } from '../../renderer/src/i18n/index.js';
import { sayFailure } from '../../renderer/src/refusal.js';
import { http, startBridge } from '../helpers/bridge.js';
import { connectAgent } from '../helpers/mcp.js';
import { openWindow } from '../helpers/window.js';

/** What the window's own API client (renderer/src/api.ts) throws for a call, said as the card says it. */
async function failureOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return sayFailure(error);
  }
  throw new Error('the call did not fail');
}

// the window's language switch also marks <html lang>; here only the words matter
beforeEach(() => vi.stubGlobal('document', { documentElement: { lang: 'en' } }));
afterEach(() => {
  setLanguage('en');
  vi.unstubAllGlobals();
});

describe("a refused answer is said in the human's language", () => {
  it('an answer to a question that already ended: what became of it first, the bridge’s own words after', async () => {
    const bridge = await startBridge();
    const window = await openWindow(bridge);
    const agent = await connectAgent(bridge.url, { clientName: 'codex' });
    await agent.callTool({ name: 'user_confirm', arguments: { prompt: 'Deploy?', async: true } });
    const card = await window.nextAsk();
    const body = { askId: card.askId, action: 'answer' as const, value: true };
    expect((await http(`${bridge.url}/bridge/answer`, { token: bridge.token, body })).status).toBe(200);

    const api = createApi(`${bridge.url}/`, bridge.token);
    setLanguage('zh-CN');
    const said = await failureOf(api.answer(body));
    expect(said).toMatch(/^这个问题已经结束；没有任何改变。/);
    expect(said).toContain('has already ended');
    setLanguage('zh-TW');
    expect(await failureOf(api.answer(body))).toMatch(/^這個問題已經結束/);
    setLanguage('en');
    expect(await failureOf(api.answer({ ...body, askId: 'ask-000000000000' }))).toMatch(
      /^The bridge no longer has this; nothing was changed\. The bridge said: no ask "ask-000000000000"/,
    );
  });

  it('nothing answering: nothing was sent, and what was typed is kept', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/`;
    await bridge.close();
    setLanguage('zh-CN');
    expect(await failureOf(createApi(url, bridge.token).answer({ askId: 'a', action: 'answer', value: true }))).toBe(
      '桥接服务没有响应：什么也没有发送。你输入的内容保留在这里；窗口重新连接后请再发送。',
    );
  });
});
