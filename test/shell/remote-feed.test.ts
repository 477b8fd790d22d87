import { describe, expect, it } from 'vitest';
import { trackOpenAsks } from '../../electron/open-asks.js';
import { remoteFeed } from '../../electron/remote-feed.js';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { waitFor } from '../helpers/wait.js';

describe('the feed of an attached bridge', () => {
  it('counts the open asks of a bridge in another process from its role=ai stream', async () => {
    const other = await startBridge();
    const early = other.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    // open (journaled, on the human's screen) before the feed connects: its first state holds it
    await early.opened;
    const feed = remoteFeed(other.url, other.token);
    onCleanup(() => feed.close());
    const asks = trackOpenAsks(feed);
    const counts: number[] = [];
    asks.onCountChange((count) => counts.push(count));
    const fresh: string[] = [];
    asks.onNewAsk((ask) => fresh.push(ask.prompt));

    await waitFor(() => asks.list().length === 1, 5000, 'the state event');
    other.context.asks.create({ kind: 'user_input', agentId: 'cursor', prompt: 'Table name?' });
    await waitFor(() => asks.list().length === 2, 5000, 'the ask event');
    expect(fresh).toEqual(['Table name?']);

    await http(`${other.url}/bridge/answer`, {
      token: other.token,
      body: { askId: early.askId, action: 'answer', value: true },
    });
    await waitFor(() => asks.list().length === 1, 5000, 'the ask_update event');
    expect(asks.list().map((a) => a.prompt)).toEqual(['Table name?']);
    expect(counts).toEqual([1, 2, 1]);
  });

  it('its snapshot is the asks open now, also those opened, paused and ended since it connected', async () => {
    const other = await startBridge();
    const feed = remoteFeed(other.url, other.token);
    onCleanup(() => feed.close());
    // connected (the state event came) before any ask opened
    await waitFor(() => feed.snapshot().version !== '', 5000, 'the state event');
    const first = other.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'First?' });
    await first.opened;
    const late = other.context.asks.create({ kind: 'user_input', agentId: 'cursor', prompt: 'Table name?' });
    await late.opened;
    await waitFor(() => feed.snapshot().asks.length === 2, 5000, 'both asks in the snapshot');
    await http(`${other.url}/bridge/answer`, { token: other.token, body: { askId: late.askId, action: 'pause' } });
    await waitFor(() => feed.snapshot().asks.some((a) => a.askId === late.askId && a.paused), 5000, 'the pause');
    await http(`${other.url}/bridge/answer`, {
      token: other.token,
      body: { askId: first.askId, action: 'answer', value: true },
    });
    await waitFor(() => feed.snapshot().asks.length === 1, 5000, 'the answered ask to leave the snapshot');
    expect(feed.snapshot().asks.map((a) => a.prompt)).toEqual(['Table name?']);
  });

  it('stays empty, without throwing, when the token is refused', async () => {
    const other = await startBridge();
    other.context.asks.create({ kind: 'user_confirm', agentId: 'claude', prompt: 'Ship it?' });
    const feed = remoteFeed(other.url, 'wrong-token', { retryMs: 50 });
    onCleanup(() => feed.close());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(feed.snapshot().asks).toEqual([]);
  });
});
