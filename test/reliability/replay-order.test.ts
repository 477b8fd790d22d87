import { describe, expect, it } from 'vitest';
import type { Inbox } from '../../bridge/inbox/inbox.js';
import { createLogger } from '../../bridge/log.js';
import { tempDir } from '../helpers/bridge.js';
import { openInbox } from '../helpers/inbox.js';

/** An inbox on the journal in `dir`, with a clock the test moves (several messages may share one instant). */
function open(dir: string, clock: { now: number }): Inbox {
  const now = () => new Date(clock.now);
  return openInbox(dir, { log: createLogger('test', 'silent'), now }).inbox;
}

describe('journal replay at start', () => {
  it('puts the history of all agents back in time order, an agent’s messages of one instant in writing order', async () => {
    const dir = tempDir();
    const clock = { now: Date.parse('2026-11-30T10:00:00.000Z') };
    const first = open(dir, clock);
    const written: string[] = [];
    // interleaved over three agents in runs of four messages that share one millisecond
    for (let i = 0; i < 300; i++) {
      if (i % 4 === 0) clock.now += 1 + (i % 5);
      const message = await first.add(['claude', 'cursor', 'codex'][Math.floor(i / 4) % 3] ?? 'claude', {
        kind: 'user_message',
        from: 'window',
        text: `#${i}`,
      });
      written.push(message.id);
    }
    const before = await pageAll(first);
    await first.close();

    const second = open(dir, clock);
    // files are read agent by agent; the history must still interleave as it was written
    expect(await pageAll(second)).toEqual(before);
    expect(await pageAll(second)).toEqual([...written].reverse());
    await second.close();
  });
});

/** Every message id of the cross-agent history, newest first, read page by page with the before cursor. */
async function pageAll(inbox: Inbox): Promise<string[]> {
  const ids: string[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await inbox.history({ limit: 40, ...(before ? { before } : {}) });
    ids.push(...page.messages.map((m) => m.id));
    if (!page.nextBefore) return ids;
    before = page.nextBefore;
  }
}
