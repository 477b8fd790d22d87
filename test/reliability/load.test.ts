import { describe, expect, it } from 'vitest';
import { startBridge } from '../helpers/bridge.js';
import { ScriptedPage } from '../helpers/scripted-page.js';

describe('load: many pages at once', () => {
  it('routes every result to its own request with 40 pages and 2,000 concurrent commands', async () => {
    const bridge = await startBridge({ commandTimeoutMs: 20_000 });
    const pages = await Promise.all(
      Array.from({ length: 40 }, () =>
        ScriptedPage.connect(bridge.url, {
          // Answer out of order, after a random short delay, with who answered and what was asked.
          handler: async (_cmd, args) => {
            await new Promise((r) => setTimeout(r, Math.random() * 20));
            return { args };
          },
        }),
      ),
    );
    const calls = Array.from({ length: 2000 }, (_, i) => {
      const page = pages[i % pages.length];
      const target = page && bridge.context.pages.get(page.pageId);
      if (!page || !target) throw new Error('page not registered');
      return bridge.context.requests
        .send(target, 'DOM.getText', { target: `css=#n${i}`, from: page.pageId })
        .then((result) => ({ i, pageId: page.pageId, result }));
    });
    const results = await Promise.all(calls);
    for (const { i, pageId, result } of results) {
      expect(result).toEqual({ args: { target: `css=#n${i}`, from: pageId } });
    }
    expect(bridge.context.requests.size).toBe(0);
  });
});
