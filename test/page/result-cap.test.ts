import { beforeAll, describe, expect, it } from 'vitest';
import { RESULT_CHAR_LIMIT, TRUNCATED_MARK, type Json } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { launchBrowser } from '../helpers/browser.js';
import { serveFixture } from '../fixtures/server.js';
import { agentTag, connectedPage, ensurePageAgentBuilt, exec } from './harness.js';

beforeAll(() => ensurePageAgentBuilt());

/** A page, and page_exec on it as the agent sends it. */
async function open() {
  const bridge = await startBridge();
  const server = await serveFixture({ '/': `<!doctype html><title>Results</title>${agentTag(bridge)}<body></body>` });
  const tab = await (await launchBrowser()).newPage();
  await tab.goto(server.url + '/');
  const page = await connectedPage(bridge, server.url + '/');
  return { run: (cmd: string, args: Json = {}) => exec(bridge, page, cmd, args) as Promise<Record<string, Json>> };
}

// the cap's other cases (a big string, many small parts, a big list beside a small one) are in more-commands.test.ts
describe('a result over the character limit', () => {
  it('cuts a big result only as much as it must: what fits stays whole, the small parts beside it untouched', async () => {
    const { run } = await open();
    const evaluate = (expression: string) => run('Runtime.evaluate', { expression });
    const size = (value: unknown) => JSON.stringify(value).length;

    // a long string in a small result is no reason to cut
    expect(await evaluate('"y".repeat(1000)')).toEqual({ value: 'y'.repeat(1000) });
    // a result of exactly the limit fits; one character more does not
    const wrapper = size({ value: '' });
    const atLimit = await evaluate(`"a".repeat(${RESULT_CHAR_LIMIT - wrapper})`);
    expect(atLimit).toEqual({ value: 'a'.repeat(RESULT_CHAR_LIMIT - wrapper) });
    const over = await evaluate(`"a".repeat(${RESULT_CHAR_LIMIT - wrapper + 1})`);
    expect(String(over.value).endsWith(TRUNCATED_MARK)).toBe(true);
    expect(size(over)).toBeLessThanOrEqual(RESULT_CHAR_LIMIT);

    // the largest part is cut, and only by what is too much: the agent still reads nearly the whole limit
    const mixed = await evaluate(
      '({ big: "x".repeat(300000), small: "s".repeat(300), none: null, count: 7, list: [1, null, "two"] })',
    );
    expect(mixed).toMatchObject({ value: { small: 's'.repeat(300), none: null, count: 7, list: [1, null, 'two'] } });
    const big = String((mixed.value as Record<string, Json>).big);
    expect(big.endsWith(TRUNCATED_MARK)).toBe(true);
    expect(big.startsWith('x'.repeat(1000))).toBe(true);
    expect(size(mixed)).toBeLessThanOrEqual(RESULT_CHAR_LIMIT);
    expect(size(mixed)).toBeGreaterThan(RESULT_CHAR_LIMIT - 500);

    // a list whose first item holds nearly all of it: the item is cut, not the list, so the rest is still there
    const list = await evaluate('["z".repeat(300000), "after", 2]');
    const items = list.value as Json[];
    expect(items).toHaveLength(3);
    expect(String(items[0]).endsWith(TRUNCATED_MARK)).toBe(true);
    expect(items.slice(1)).toEqual(['after', 2]);
    expect(size(list)).toBeGreaterThan(RESULT_CHAR_LIMIT - 500);

    // a long list of items alike is halved: its first items, whole and in order, then the mark
    const rows = await evaluate('Array.from({ length: 500 }, (_, i) => i + ":" + "n".repeat(600))');
    const kept = rows.value as Json[];
    expect(kept.at(-1)).toBe(TRUNCATED_MARK);
    expect(kept.slice(0, -1)).toEqual(Array.from({ length: kept.length - 1 }, (_, i) => `${i}:${'n'.repeat(600)}`));
    expect(size(rows)).toBeLessThanOrEqual(RESULT_CHAR_LIMIT);
    expect(size(rows)).toBeGreaterThan(RESULT_CHAR_LIMIT / 4);
  });
});
