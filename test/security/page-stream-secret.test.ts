import { describe, expect, it } from 'vitest';
import type { Bridge } from '../../bridge/bridge.js';
import { http, startBridge } from '../helpers/bridge.js';
import { claimPage } from '../helpers/page-wire.js';
import { SseClient } from '../helpers/sse.js';
import { waitFor } from '../helpers/wait.js';

/**
 * Which page may open a command stream (GET /bridge/sse?role=page), as the page, or a website pretending to be
 * it, sees the answer: a claimed page only with its secret, an older page agent without one only from its own
 * loopback or allowed origin, and never on a bridge that refuses them. Each refusal names what was wrong.
 */

const DEV = 'http://localhost:5173';

function streamUrl(bridge: Bridge, query: Record<string, string>): string {
  return `${bridge.url}/bridge/sse?${new URLSearchParams({ role: 'page', ...query })}`;
}

/** Opens a page stream; its hello, or the status and error it was refused with. */
async function open(url: string, origin?: string) {
  try {
    const stream = await SseClient.open(url, origin ? { origin } : {});
    const hello = (await stream.next('hello')).data as { pageId: string };
    return { status: 200, stream, pageId: hello.pageId, error: '', field: undefined };
  } catch (error) {
    const { status, message } = error as Error & { status: number };
    const body = JSON.parse(message.slice(message.indexOf(': ') + 2)) as { error: string; field?: string };
    return { status, error: body.error, field: body.field, stream: undefined, pageId: '' };
  }
}

async function sessions(bridge: Bridge) {
  return (await http(`${bridge.url}/bridge/sessions`, { token: bridge.token })).body as Array<Record<string, unknown>>;
}

describe('a claimed page’s stream', () => {
  it('needs its secret: without one, or with a wrong one, it is refused saying which', async () => {
    const bridge = await startBridge();
    const { instanceId, claim } = await claimPage(bridge.url, { url: `${DEV}/` });
    const bare = await open(streamUrl(bridge, { instanceId }), DEV);
    expect(bare.status).toBe(403);
    expect(bare.error).toContain(`page ${claim.pageId} has a secret; send it`);
    expect(bare.field).toBe('secret');
    const wrong = await open(streamUrl(bridge, { instanceId, secret: 'guess' }), DEV);
    expect(wrong.status).toBe(403);
    expect(wrong.error).toContain(`wrong secret for page ${claim.pageId}`);
    expect(wrong.field).toBe('secret');
    const own = await open(streamUrl(bridge, { instanceId, secret: claim.secret }), DEV);
    expect(own).toMatchObject({ status: 200, pageId: claim.pageId });
    own.stream?.close();
  });

  it('an instance nobody claimed, named with a secret, is told to claim first', async () => {
    const bridge = await startBridge();
    const answer = await open(streamUrl(bridge, { instanceId: 'never-claimed', secret: 'x'.repeat(32) }), DEV);
    expect(answer.status).toBe(404);
    expect(answer.error).toContain('instanceId "never-claimed" has no page; claim it first with POST /bridge/claim');
    expect(answer.field).toBe('instanceId');
    expect(await sessions(bridge)).toEqual([]);
  });
});

describe('an older page agent, without a secret', () => {
  it('is listed with the URL and frameworks it gave, and comes back from its own origin', async () => {
    const bridge = await startBridge();
    const first = await open(
      streamUrl(bridge, { instanceId: 'old-1', url: `${DEV}/app`, frameworks: 'react,,vite' }),
      DEV,
    );
    expect(first.status).toBe(200);
    expect(await sessions(bridge)).toEqual([
      expect.objectContaining({ pageId: first.pageId, url: `${DEV}/app`, frameworks: ['react', 'vite'], legacy: true }),
    ]);
    first.stream?.close();
    // the same instance reconnects (a reload), still without a secret, from its own origin: the same page
    const again = await open(streamUrl(bridge, { instanceId: 'old-1', url: `${DEV}/app` }), DEV);
    expect(again).toMatchObject({ status: 200, pageId: first.pageId });
    again.stream?.close();
    // another origin of this machine naming that instance is not it
    const other = await open(streamUrl(bridge, { instanceId: 'old-1' }), 'http://localhost:3000');
    expect(other.status).toBe(403);
    expect(other.field).toBe('secret');
    expect(other.error).toContain(
      `page ${first.pageId} connected without a secret, so it answers only to its own loopback or allowed origin (${DEV}), not to "http://localhost:3000"`,
    );
  });

  it('without a URL is listed with none', async () => {
    const bridge = await startBridge();
    const page = await open(streamUrl(bridge, { instanceId: 'old-2' }), DEV);
    expect(await sessions(bridge)).toEqual([expect.objectContaining({ pageId: page.pageId, url: '', frameworks: [] })]);
    page.stream?.close();
  });

  it('from a website is refused: a page without a secret must come from a loopback or allowed origin', async () => {
    const bridge = await startBridge();
    const answer = await open(streamUrl(bridge, { instanceId: 'old-3' }), 'https://evil.example');
    expect(answer.status).toBe(403);
    expect(answer.error).toContain(
      'a page without a secret must come from a loopback or allowed origin; this one\'s Origin is "https://evil.example"',
    );
    expect(answer.field).toBe('secret');
    expect(await sessions(bridge)).toEqual([]);
  });

  it('cannot take the pageId of a claimed page the bridge forgot by naming its instance without the secret', async () => {
    const bridge = await startBridge({ ttlMs: 150 });
    const { instanceId, claim } = await claimPage(bridge.url, { url: `${DEV}/` });
    // the page never opened its stream: after the TTL the bridge forgets it, and remembers only whose id it was
    await waitFor(async () => (await sessions(bridge)).length === 0, 5000, 'the claimed page forgotten');
    const squatter = await open(streamUrl(bridge, { instanceId, url: `${DEV}/` }), DEV);
    expect(squatter.status).toBe(403);
    expect(squatter.error).toContain(
      `instanceId "${instanceId}" belongs to page ${claim.pageId}, which has a secret; claim it with POST /bridge/claim and its secret`,
    );
    expect(squatter.field).toBe('secret');
    expect(await sessions(bridge)).toEqual([]);
    // the page itself, with its secret, gets its pageId back
    const own = await claimPage(bridge.url, { url: `${DEV}/`, instanceId, secret: claim.secret });
    expect(own.claim.pageId).toBe(claim.pageId);
  });

  it('is refused by a bridge started with --refuse-legacy, from the developer’s own origin too', async () => {
    const bridge = await startBridge({ refuseLegacy: true });
    const answer = await open(streamUrl(bridge, { instanceId: 'old-4', url: `${DEV}/` }), DEV);
    expect(answer.status).toBe(403);
    expect(answer.error).toContain('this bridge refuses pages without a secret (--refuse-legacy)');
    expect(await sessions(bridge)).toEqual([]);
  });
});
