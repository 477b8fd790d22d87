import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { http, onCleanup, startBridge } from '../helpers/bridge.js';
import { callTool, connectAgent } from '../helpers/mcp.js';
import { waitFor } from '../helpers/wait.js';

/** A stand-in for an ntfy server: it takes `POST /<topic>` as ntfy does, and keeps what it was sent. */
async function fakeNtfy(): Promise<{
  topic: string;
  posts: Array<{ path: string; headers: IncomingHttpHeaders; body: string }>;
}> {
  const posts: Array<{ path: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: String(posts.length), event: 'message' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  onCleanup(() => new Promise((resolve) => server.close(() => resolve(undefined))));
  return { topic: `http://127.0.0.1:${(server.address() as AddressInfo).port}/aiti-asks`, posts };
}

const everything = (post: { headers: IncomingHttpHeaders; body: string }) =>
  JSON.stringify(post.headers) + '\n' + post.body;

describe('notified away from the desk (--notify)', () => {
  it('publishes "2 asks waiting: claude-code" with a link to the remote window, never the questions or a token', async () => {
    const ntfy = await fakeNtfy();
    const bridge = await startBridge({
      remote: { host: '127.0.0.1', port: 0 },
      notify: ntfy.topic,
      notifyToken: 'tk_ntfy_topic_token',
      notifyAfterMs: 300,
    });
    const claude = await connectAgent(bridge.url, { clientName: 'claude-code' });
    for (const prompt of ['Drop the users table?', 'Rotate the API key sk-live-123?'])
      await callTool(claude, 'user_confirm', { prompt, async: true, timeoutMs: 60_000 });

    await waitFor(() => ntfy.posts.length === 1, 5000, 'the notification');
    const [post] = ntfy.posts;
    expect(post?.path).toBe('/aiti-asks');
    expect(post?.headers.title).toBe('2 asks waiting: claude-code');
    expect(post?.headers.click).toBe(`${bridge.remote?.url}/aiti/ui/`);
    expect(post?.headers.authorization).toBe('Bearer tk_ntfy_topic_token');
    const sent = post ? everything(post) : '';
    expect(sent).not.toMatch(/users table|sk-live|Rotate/);
    for (const secret of [bridge.token, bridge.context.agentToken]) expect(sent).not.toContain(secret);

    // the same asks are announced once
    await callTool(claude, 'bridge_status');
    expect(ntfy.posts).toHaveLength(1);
  });

  it('an ask answered in time sends nothing; the next one waiting is announced alone, with its question under --notify-detail', async () => {
    const ntfy = await fakeNtfy();
    const bridge = await startBridge({ notify: ntfy.topic, notifyDetail: true, notifyAfterMs: 400 });
    const cursor = await connectAgent(bridge.url, { clientName: 'cursor' });
    await callTool(cursor, 'user_confirm', { prompt: 'Answered at once?', async: true, timeoutMs: 60_000 });
    const first = bridge.context.asks.views()[0];
    await http(`${bridge.url}/bridge/answer`, {
      token: bridge.token,
      body: { askId: first?.askId, action: 'answer', value: true },
    });
    await callTool(cursor, 'user_input', { prompt: 'Name of the release?', async: true, timeoutMs: 60_000 });

    await waitFor(() => ntfy.posts.length > 0, 5000, 'the notification');
    expect(ntfy.posts).toHaveLength(1);
    expect(ntfy.posts[0]?.headers.title).toBe('1 ask waiting: cursor');
    expect(ntfy.posts[0]?.body).toBe('cursor: Name of the release?');
    // no remote listener: the link is the local window, without its token
    expect(ntfy.posts[0]?.headers.click).toBe(`${bridge.url}/aiti/ui/`);
    expect(everything(ntfy.posts[0] ?? { headers: {}, body: '' })).not.toContain(bridge.token);
  });
});
