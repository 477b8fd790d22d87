import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LimitCounters } from '../limits.js';

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
 * A POST answer's stream that stays quiet past this tick gets its headers anyway, so the client knows the bridge
 * took the call (the stdio shim never sends a taken call again, but re-sends one it cannot know was taken).
 */
const QUIET_HEADERS_MS = 0;

/**
 * Writes a Web `Response` to a Node response, streaming SSE bodies event by event. Resolves when the body ends
 * or the client goes away (which cancels the body, so the transport forgets that stream).
 *
 * A tool call's SSE answer is usually its headers, one event and the end, produced within one tick: written one
 * by one on a no-delay socket, that is three syscalls and three packets the client wakes up for. The socket is
 * corked until the next tick instead, so they leave together. A long-lived stream (`flushAtOnce`: the GET stream)
 * sends its headers at once; a POST answer that stays quiet (a question to the human) sends them on the next timer.
 * With `limits`, a client that leaves more than limits.sseBufferBytes unread is disconnected rather than
 * buffered for.
 */
export async function sendWebResponse(
  res: ServerResponse,
  response: Response,
  onOpen?: () => void,
  options: { flushAtOnce?: boolean; limits?: LimitCounters } = {},
): Promise<void> {
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
  if (!response.body) {
    res.end();
    return;
  }
  let quiet: NodeJS.Timeout | undefined;
  // Node holds headers back until the first write; a quiet stream must still open.
  if (streaming && options.flushAtOnce) res.flushHeaders();
  else if (streaming) quiet = setTimeout(() => res.flushHeaders(), QUIET_HEADERS_MS);
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  onOpen?.();
  let corked = false;
  const uncork = () => {
    corked = false;
    res.uncork();
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.writableEnded) continue;
      clearTimeout(quiet);
      if (!corked) {
        corked = true;
        res.cork();
        process.nextTick(uncork);
      }
      res.write(value);
      const limits = options.limits;
      if (limits && res.writableLength > limits.limits.sseBufferBytes) {
        limits.refused('sseReaders');
        cancel();
        res.destroy();
        break;
      }
    }
  } catch {
    // the client left or the transport closed the stream: nothing more to write
  } finally {
    clearTimeout(quiet);
    res.off('close', cancel);
    if (!res.writableEnded) res.end();
  }
}
