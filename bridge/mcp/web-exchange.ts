import type { IncomingMessage, ServerResponse } from 'node:http';

/** A Web `Request` for the SDK's web-standard transport, from a Node request whose body was already read. */
export function toWebRequest(req: IncomingMessage, url: string, overrides: Record<string, string> = {}): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  for (const [name, value] of Object.entries(overrides)) headers.set(name, value);
  return new Request(url, { method: req.method ?? 'GET', headers });
}

/**
 * Writes a Web `Response` to a Node response, streaming SSE bodies event by event. Resolves when the body ends
 * or the client goes away (which cancels the body, so the transport forgets that stream).
 */
export async function sendWebResponse(res: ServerResponse, response: Response, onOpen?: () => void): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  const streaming = headers['content-type']?.includes('text/event-stream') ?? false;
  if (streaming) {
    res.socket?.setTimeout(0);
    res.socket?.setNoDelay(true);
    res.socket?.setKeepAlive(true);
    headers['x-accel-buffering'] = 'no';
  }
  res.writeHead(response.status, headers);
  // Node holds headers back until the first write; a quiet stream must still open at once.
  if (streaming) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  onOpen?.();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.writableEnded) res.write(value);
    }
  } catch {
    // the client left or the transport closed the stream: nothing more to write
  } finally {
    res.off('close', cancel);
    if (!res.writableEnded) res.end();
  }
}
