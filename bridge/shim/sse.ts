/** One server-sent event. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Turns the text of a `text/event-stream` body, chunk by chunk, into its events (the parts of the format the
 * bridge's MCP endpoint uses: `event:` and `data:` lines; comments and `id:` skipped).
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
