/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Turns the text of a `text/event-stream` body, chunk by chunk, into its events (the parts of the format the
 * bridge's streams use: `event:` and `data:` lines, LF or CRLF; comments and `id:` skipped). The one SSE reader of
 * the Node side: the stdio shim reads the MCP endpoint with it, the desktop app an attached bridge's human feed
 * (electron/remote-feed.ts). Plain string code, so every runtime may import it.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    const events: SseEvent[] = [];
    this.buffer += chunk;
    let start = 0;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n', start)) !== -1) {
      let line = this.buffer.slice(start, newline);
      start = newline + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (this.data.length) events.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
      } else if (line.startsWith('data:')) this.data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      else if (line.startsWith('event:')) this.event = line.slice(6).trim();
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }
}
