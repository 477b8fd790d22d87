import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { STRUCTURED_RESULTS } from '../../bridge/protocol/index.js';
import { startBridge } from '../helpers/bridge.js';
import { openWindow } from '../helpers/window.js';
import { waitFor } from '../helpers/wait.js';

/**
 * The bridge's own Streamable HTTP transport (bridge/mcp/http-transport.ts), seen from a raw HTTP client: how an
 * answer comes back (one JSON body when it is ready at once, an event stream when it is not), and what a client
 * gets when its session ends under a call.
 */
const VERSION = '2025-11-25';

interface Raw {
  res: IncomingMessage;
  body: Promise<string>;
  /** what arrived so far */
  received: () => string;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      let received = '';
      res.on('data', (chunk: string) => (received += chunk));
      resolve({ res, body: new Promise((done) => res.on('end', () => done(received))), received: () => received });
    });
    req.on('error', reject);
    req.end(text);
  });
}

async function session(url: string, version = VERSION): Promise<Record<string, string>> {
  const init = await post(url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    // a program: it reads results' JSON
    params: {
      protocolVersion: version,
      capabilities: { experimental: { [STRUCTURED_RESULTS]: {} } },
      clientInfo: { name: 'raw', version: '1' },
    },
  });
  await init.body;
  const id = init.res.headers['mcp-session-id'];
  expect(typeof id).toBe('string');
  const headers = { 'mcp-session-id': String(id), 'mcp-protocol-version': version };
  await (
    await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)
  ).body;
  return headers;
}

/** The JSON-RPC messages of an SSE body. */
function events(body: string): unknown[] {
  return body
    .split('\n')
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as unknown);
}

/** A bridge, its window, a raw session, and a user_confirm call sent on it (the card is open when this returns). */
async function confirmCall(id: number, prompt: string, meta?: Record<string, unknown>) {
  const bridge = await startBridge();
  const window = await openWindow(bridge);
  const url = `${bridge.url}/mcp/mcp`;
  const headers = await session(url);
  const params = { name: 'user_confirm', arguments: { prompt }, ...(meta ? { _meta: meta } : {}) };
  const call = await post(url, { jsonrpc: '2.0', id, method: 'tools/call', params }, headers);
  const card = await window.nextAsk();
  return { window, url, headers, call, card };
}

describe('the Streamable HTTP transport', () => {
  it('answers a call that is ready at once as one JSON body with its length', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url);
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
      headers,
    );
    expect(call.res.statusCode).toBe(200);
    expect(call.res.headers['content-type']).toBe('application/json');
    expect(call.res.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
    const body = await call.body;
    expect(Number(call.res.headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { structuredContent: { you: 'raw' } } });
  });

  it('answers a batch of two requests as a JSON array in their order', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url);
    const call = await post(
      url,
      [
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      ],
      headers,
    );
    const answers = JSON.parse(await call.body) as Array<{ id: string; result: unknown }>;
    expect(answers.map((a) => a.id)).toEqual(['b', 'a']);
    expect(answers[1]?.result).toMatchObject({ tools: expect.arrayContaining([expect.anything()]) });
  });

  it('sends the headers of a call that waits for the human before its answer, then the answer as an event', async () => {
    const { window, call, card } = await confirmCall(7, 'Go on?');
    // the headers came while the card is still open: the client knows the bridge took the call
    expect(call.res.headers['content-type']).toBe('text/event-stream');
    expect(card.prompt).toBe('Go on?');
    expect((await window.act({ askId: card.askId, action: 'answer', value: true })).status).toBe(200);
    const answer = events(await call.body).find((m) => (m as { id?: unknown }).id === 7);
    expect(answer).toMatchObject({ result: { structuredContent: { status: 'answered', value: true } } });
  });

  it('streams progress when the call asks for it, with the answer last', async () => {
    const { window, call, card } = await confirmCall(8, 'Ship it?', { progressToken: 'p8' });
    await window.act({ askId: card.askId, action: 'answer', value: false });
    const messages = events(await call.body) as Array<{ method?: string; id?: number; params?: unknown }>;
    expect(messages[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p8' } });
    expect(messages.at(-1)).toMatchObject({ id: 8, result: { structuredContent: { status: 'answered' } } });
  });

  it('answers a call still open when the client ends the session with an error, not a cut stream', async () => {
    const { url, headers, call } = await confirmCall(9, 'Wait?');
    const ended = await fetch(url, { method: 'DELETE', headers });
    expect(ended.status).toBe(200);
    const answer = events(await call.body).find((m) => (m as { id?: unknown }).id === 9);
    expect(answer).toMatchObject({ error: { message: expect.stringContaining('session ended') } });
  });

  it('starts every event stream with a retry and an event id, and gives every event an id, so it can be resumed', async () => {
    const { window, call, card } = await confirmCall(10, 'Resumable?', { progressToken: 'p10' });
    await window.act({ askId: card.askId, action: 'answer', value: true });
    const body = await call.body;
    expect(body).toMatch(/^retry: \d+\nid: \S+\ndata:\n\n/);
    const blocks = body.split('\n\n').filter((block) => block.includes('data: '));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const block of blocks) expect(block).toMatch(/^id: \S+\n/);
  });

  it('sends a client older than 2025-11-25 no event without data, which its SDK cannot parse (Gemini CLI 0.61)', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url, '2025-06-18');
    const stream = await new Promise<IncomingMessage>((resolve, reject) =>
      request(url, { headers: { ...headers, accept: 'text/event-stream' } }, resolve)
        .on('error', reject)
        .end(),
    );
    stream.setEncoding('utf8');
    let received = '';
    stream.on('data', (chunk: string) => (received += chunk));
    // the bridge writes on its own stream now: a push reaches the GET stream's readers as a list change at least
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'bridge_status', arguments: {} } },
      headers,
    );
    expect(await call.body).not.toMatch(/data:\s*\n\n/);
    stream.destroy();
    expect(received).not.toMatch(/data:\s*\n\n/);
    expect(stream.headers['content-type']).toBe('text/event-stream');
  });

  it('a call whose stream broke is resumed by a GET with its Last-Event-ID, and its answer comes there', async () => {
    const { window, url, headers, call, card } = await confirmCall(11, 'Still there?');
    await waitFor(() => /id: \S+/.test(call.received()), 5000, 'the stream’s first event id');
    const lastEventId = /id: (\S+)/.exec(call.received())?.[1] ?? '';
    expect(lastEventId).not.toBe('');
    call.res.destroy(); // the network broke
    // the human answers while the client is away; the answer waits for the resume
    expect((await window.act({ askId: card.askId, action: 'answer', value: true })).status).toBe(200);
    const resumed = await fetch(url, {
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId },
    });
    expect(resumed.headers.get('content-type')).toBe('text/event-stream');
    const answer = events(await resumed.text()).find((m) => (m as { id?: unknown }).id === 11);
    expect(answer).toMatchObject({ result: { structuredContent: { status: 'answered', value: true } } });
  });

  it('a resume of a stream the bridge no longer has answers its calls at once, saying their answers are lost', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url);
    // the Last-Event-ID of a stream of another run of the bridge (it restarted): calls 41 and 42, both tool calls
    const key = Buffer.from(JSON.stringify([[41, 42], true])).toString('base64url');
    const resumed = await fetch(url, {
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': `0badf00d.${key}.3` },
    });
    const answers = events(await resumed.text()) as Array<{
      id: number;
      result: { isError: boolean; content: Array<{ text: string }> };
    }>;
    expect(answers.map((a) => [a.id, a.result.isError])).toEqual([
      [41, true],
      [42, true],
    ]);
    expect(answers[0]?.result.content[0]?.text).toMatch(/answer is lost.*call again/);
  });

  it('refuses a request whose id is a number past the safe integers instead of never answering it', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url);
    for (const id of [29921580037359215000, -1.7976931348623157e308]) {
      const inSession = await post(url, { jsonrpc: '2.0', id, method: 'ping' }, headers);
      expect(inSession.res.statusCode).toBe(400);
      expect(JSON.parse(await inSession.body)).toMatchObject({ error: { code: -32700 } });
      const stateless = await post(url, { jsonrpc: '2.0', id, method: 'tools/list' });
      expect(stateless.res.statusCode).toBe(400);
    }
  });

  it('refuses what the SDK refuses: a bad message, an unknown protocol version, a second GET stream', async () => {
    const bridge = await startBridge();
    const url = `${bridge.url}/mcp/mcp`;
    const headers = await session(url);
    const bad = await post(url, { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }, headers);
    expect(bad.res.statusCode).toBe(400);
    expect(JSON.parse(await bad.body)).toMatchObject({ error: { code: -32700 } });
    const version = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { ...headers, 'mcp-protocol-version': '1999-01-01' },
    );
    expect(version.res.statusCode).toBe(400);
    expect(await version.body).toContain('Unsupported protocol version: 1999-01-01');
    const streams = new AbortController();
    try {
      const first = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: streams.signal });
      expect(first.status).toBe(200);
      const second = await fetch(url, { headers: { ...headers, accept: 'text/event-stream' }, signal: streams.signal });
      expect(second.status).toBe(409);
    } finally {
      streams.abort();
    }
  });
});
