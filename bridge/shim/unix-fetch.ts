import { request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` that goes through a Unix socket, for the MCP SDK's client transport (`aiti-bridge call` with
 * `AITI_BRIDGE_URL=unix:<path>`): Node's own fetch cannot dial one. Only what the transport uses: method, headers,
 * a string body, an abort signal; the answer's body streams.
 */
export function unixFetch(socketPath: string): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((value, name) => (headers[name] = value));
      const req = request(url, {
        socketPath,
        method: init.method ?? 'GET',
        headers,
        ...(init.signal ? { signal: init.signal } : {}),
      });
      req.on('error', reject);
      req.on('response', (res) => {
        const status = res.statusCode ?? 502;
        const answer = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        const empty = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD';
        if (empty) res.resume();
        const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(body, { status, headers: answer }));
      });
      const body = init.body;
      if (body !== undefined && body !== null && typeof body !== 'string')
        return req.destroy(new Error('unixFetch sends string bodies only'));
      req.end(body ?? undefined);
    });
}
