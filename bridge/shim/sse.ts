/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body, in order (the parts of the format the bridge's MCP endpoint uses:
 * `event:` and `data:` lines, comments and `id:` skipped).
 */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  // read through a reader: the DOM typings (the electron project sees this file) give streams no async iterator
  const reader = body.getReader();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    buffer += decoder.decode(next.value, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      if (line === '') {
        if (data.length) yield { event: event || 'message', data: data.join('\n') };
        event = '';
        data = [];
      } else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
      else if (line.startsWith('event:')) event = line.slice(6).trim();
    }
  }
}
