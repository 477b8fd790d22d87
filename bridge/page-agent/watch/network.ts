import type { NetworkEntry } from '../../protocol/page.js';
import { cut, type Batcher } from './batch.js';

/** fetch and XHR: method, URL, status, duration and sizes. Bodies are never read. */
let quiet = 0;
let unwatchedFetch: typeof fetch | undefined;

/** The agent's own requests (source maps): the browser's fetch, not the watched one, so they never count. */
export function agentFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  return (unwatchedFetch ?? window.fetch.bind(window))(input, init);
}

/**
 * Requests made by the agent itself (the screenshot's font and image fetches) are not the page's traffic. Only
 * requests that start while `run` is running are left out; one the app started before still counts when it ends.
 */
export async function quietNetwork<T>(run: () => Promise<T>): Promise<T> {
  quiet++;
  try {
    return await run();
  } finally {
    quiet--;
  }
}

function bodySize(body: unknown): number | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return new TextEncoder().encode(body).length;
  if (body instanceof Blob) return body.size;
  if (body instanceof ArrayBuffer) return body.byteLength;
  if (ArrayBuffer.isView(body)) return body.byteLength;
  if (body instanceof URLSearchParams) return body.toString().length;
  return undefined;
}

function absolute(url: string): string {
  try {
    return new URL(url, location.href).href;
  } catch {
    return url;
  }
}

function contentLength(value: string | null): number | undefined {
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : undefined;
}

export function watchNetwork(batcher: Batcher, bridgeBase: string): void {
  const ours = (url: string) => url.startsWith(bridgeBase + '/');
  const record = (entry: Omit<NetworkEntry, 'at' | 'ok' | 'url'> & { url: string }, mine: boolean) => {
    if (mine || ours(entry.url)) return;
    batcher.push('page_network', {
      ...entry,
      url: cut(entry.url, 8192),
      method: entry.method.toUpperCase().slice(0, 16),
      ok: entry.status >= 200 && entry.status < 400,
      durationMs: Math.max(0, Math.round(entry.durationMs)),
      at: new Date().toISOString(),
    } satisfies NetworkEntry);
  };

  const originalFetch = window.fetch;
  unwatchedFetch = originalFetch.bind(window);
  window.fetch = async function (input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const started = performance.now();
    const mine = quiet > 0;
    const request = input instanceof Request ? input : undefined;
    const url = absolute(request ? request.url : String(input));
    const method = init?.method ?? request?.method ?? 'GET';
    const requestSize = bodySize(init?.body);
    try {
      const response = await originalFetch.call(window, input, init);
      record(
        {
          type: 'fetch',
          method,
          url,
          status: response.status,
          durationMs: performance.now() - started,
          ...(requestSize !== undefined ? { requestSize } : {}),
          ...optional('responseSize', contentLength(response.headers.get('content-length'))),
        },
        mine,
      );
      return response;
    } catch (error) {
      record(
        {
          type: 'fetch',
          method,
          url,
          status: 0,
          durationMs: performance.now() - started,
          error: cut(error instanceof Error ? error.message : String(error), 2000),
        },
        mine,
      );
      throw error;
    }
  };

  const info = new WeakMap<XMLHttpRequest, { method: string; url: string; started: number; requestSize?: number }>();
  const proto = XMLHttpRequest.prototype;
  const open = proto.open as (this: XMLHttpRequest, ...args: unknown[]) => void;
  const send = proto.send;
  proto.open = function (this: XMLHttpRequest, ...args: unknown[]) {
    info.set(this, { method: String(args[0] ?? 'GET'), url: absolute(String(args[1] ?? '')), started: 0 });
    return open.apply(this, args);
  } as typeof proto.open;
  proto.send = function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
    const meta = info.get(this);
    if (meta) {
      const mine = quiet > 0;
      meta.started = performance.now();
      meta.requestSize = bodySize(body);
      let failure: string | undefined;
      const fail = (why: string) => () => (failure = why);
      this.addEventListener('error', fail('network error'));
      this.addEventListener('abort', fail('aborted'));
      this.addEventListener('timeout', fail('timed out'));
      this.addEventListener('loadend', () => {
        let responseSize = contentLength(this.getResponseHeader('content-length'));
        if (responseSize === undefined && (this.responseType === '' || this.responseType === 'text'))
          responseSize = this.responseText.length;
        record(
          {
            type: 'xhr',
            method: meta.method,
            url: meta.url,
            status: this.status,
            durationMs: performance.now() - meta.started,
            ...optional('requestSize', meta.requestSize),
            ...optional('responseSize', responseSize),
            ...(failure ? { error: failure } : {}),
          },
          mine,
        );
      });
    }
    return send.call(this, body);
  };
}

function optional<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}
