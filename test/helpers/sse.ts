export interface SseEvent {
  event: string;
  data: unknown;
}

/**
 * A small SSE client over fetch for tests: collects events, and `next(name)` waits for the next event of that
 * name (pings are skipped unless asked for).
 */
export class SseClient {
  readonly events: SseEvent[] = [];
  private readonly waiters: Array<{ name: string; resolve: (e: SseEvent) => void }> = [];
  private readonly controller = new AbortController();
  private consumed = 0;
  closed = false;
  status = 0;

  static async open(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = new SseClient();
    const res = await fetch(url, {
      headers: { accept: 'text/event-stream', ...headers },
      signal: client.controller.signal,
    });
    client.status = res.status;
    if (!res.ok || !res.body) {
      client.closed = true;
      throw Object.assign(new Error(`SSE ${url} answered ${res.status}: ${await res.text()}`), { status: res.status });
    }
    void client.read(res.body);
    return client;
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    // where the search for the end of an event goes on from: a big event (a window's state of megabytes) comes in
    // many chunks, and searching it all again at each one took minutes
    let searched = 0;
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n', searched)) !== -1) {
          searched = 0;
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (!data.length) continue;
          this.push({ event, data: JSON.parse(data.join('\n')) as unknown });
        }
        searched = Math.max(0, buffer.length - 1);
      }
    } catch {
      // aborted or reset
    }
    this.closed = true;
  }

  private push(event: SseEvent): void {
    this.events.push(event);
    const index = this.waiters.findIndex((w) => w.name === event.event);
    if (index !== -1) {
      const [waiter] = this.waiters.splice(index, 1);
      this.consumed = this.events.length;
      waiter?.resolve(event);
    }
  }

  /** The next event named `name` not yet returned by next(), waiting up to timeoutMs. */
  next(name: string, timeoutMs = 5000): Promise<SseEvent> {
    const found = this.events.slice(this.consumed).find((e) => e.event === name);
    if (found) {
      this.consumed = this.events.indexOf(found) + 1;
      return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        name,
        resolve: (e: SseEvent) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        // a waiter that gave up must not swallow the next event of that name
        const index = this.waiters.indexOf(waiter);
        if (index !== -1) this.waiters.splice(index, 1);
        reject(
          new Error(`no "${name}" event within ${timeoutMs} ms; got: ${this.events.map((e) => e.event).join(', ')}`),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  close(): void {
    this.controller.abort();
    this.closed = true;
  }
}
