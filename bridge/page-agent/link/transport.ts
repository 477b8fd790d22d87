/**
 * Requests to the bridge. The page's own fetch may be wrapped by the network watcher, so the original is kept;
 * bodies go as text/plain, which the browser sends without a CORS preflight.
 */
const nativeFetch = window.fetch.bind(window);

export class BridgeHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function postJson(url: string, body: unknown, options: { keepalive?: boolean } = {}): Promise<unknown> {
  const text = JSON.stringify(body);
  const res = await nativeFetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'text/plain' },
    body: text,
    credentials: 'omit',
    mode: 'cors',
    // keepalive bodies are limited to 64 KiB; it lets the last batch leave a page that is unloading
    keepalive: Boolean(options.keepalive) && text.length < 60_000,
  });
  if (!res.ok) {
    let reason = `${res.status}`;
    try {
      const error = (await res.json()) as { error?: unknown };
      if (typeof error.error === 'string') reason = `${res.status}: ${error.error}`;
    } catch {
      // not JSON
    }
    throw new BridgeHttpError(res.status, `the bridge answered ${reason}`);
  }
  return res.status === 204 ? undefined : ((await res.json()) as unknown);
}
