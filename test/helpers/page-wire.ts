import { randomUUID } from 'node:crypto';
import type { ClaimAnswer } from '../../bridge/protocol/index.js';
import { SseClient } from './sse.js';

/** The page side of the wire without a browser (no vitest here: the benchmarks use it too). */

export interface ClaimOptions {
  instanceId?: string;
  secret?: string;
  url?: string;
  /** the browser Origin header to claim with (default: the origin of `url`, as a browser on that page sends) */
  origin?: string;
  frameworks?: string[];
  title?: string;
}

/** POST /bridge/claim as the page agent does it (text/plain, so no preflight). */
export async function claimPage(
  bridgeUrl: string,
  options: ClaimOptions = {},
): Promise<{ instanceId: string; claim: ClaimAnswer }> {
  const instanceId = options.instanceId ?? randomUUID();
  const url = options.url ?? 'http://localhost:3000/';
  const origin = options.origin ?? browserOrigin(url);
  const res = await fetch(`${bridgeUrl}/bridge/claim`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', ...(origin ? { origin } : {}) },
    body: JSON.stringify({
      instanceId,
      secret: options.secret,
      pageKey: url,
      url,
      frameworks: options.frameworks ?? [],
      ...(options.title ? { title: options.title } : {}),
    }),
  });
  if (!res.ok) throw new Error(`claim answered ${res.status}: ${await res.text()}`);
  return { instanceId, claim: (await res.json()) as ClaimAnswer };
}

/** Opens a page's command stream and waits for its `hello`. */
export async function openPageStream(
  bridgeUrl: string,
  page: { instanceId: string; secret: string; frameId?: string; origin?: string },
  helloTimeoutMs = 5000,
): Promise<SseClient> {
  const q = new URLSearchParams({ role: 'page', instanceId: page.instanceId, secret: page.secret });
  if (page.frameId) q.set('frameId', page.frameId);
  const stream = await SseClient.open(`${bridgeUrl}/bridge/sse?${q}`, page.origin ? { origin: page.origin } : {});
  await stream.next('hello', helloTimeoutMs);
  return stream;
}

/** The Origin a browser sends from a page at `url` (every cross-origin POST carries one); undefined for no URL. */
export function browserOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
