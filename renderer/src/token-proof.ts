import { TokenProofAnswer } from '../../bridge/protocol/index.js';

/**
 * Before the window sends its token anywhere (a REST call, the stream's `?token=`), what answers on the port
 * proves it holds that token: `GET /bridge/token-proof?nonce=` must come back with the HMAC-SHA256 of a fresh
 * nonce and the port, keyed with the token (bridge/token.ts tokenProof), checked here with WebCrypto. A program
 * that took the port after the bridge stopped cannot answer, and gets nothing.
 */
export type PeerProof =
  | { kind: 'proven' }
  /** something answered, and it is not a bridge holding this token */
  | { kind: 'impostor'; why: string }
  /** nothing answered: the bridge is down or restarting */
  | { kind: 'unreachable'; why: string };

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

/** The proof a bridge holding `token` gives for `nonce` on `port`. */
export async function expectedProof(token: string, nonce: string, port: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = await crypto.subtle.sign('HMAC', key, encoder.encode(`aiti-token-proof\n${nonce}\n${port}`));
  return base64url(new Uint8Array(mac));
}

/** Asks whatever answers at `base` (the API base, `…/aiti/`) to prove it holds `token`. */
export async function proveBridge(base: string, token: string): Promise<PeerProof> {
  if (!globalThis.crypto?.subtle)
    return {
      kind: 'impostor',
      why: 'this browser offers no WebCrypto here (only on https and loopback addresses), so the window cannot check',
    };
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(24)));
  const url = new URL(`bridge/token-proof?nonce=${nonce}`, base);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  let res: Response;
  try {
    res = await fetch(url, { cache: 'no-store', credentials: 'omit' });
  } catch (error) {
    return { kind: 'unreachable', why: error instanceof Error ? error.message : String(error) };
  }
  let answer: unknown;
  try {
    answer = await res.json();
  } catch {
    // judged below
  }
  const parsed = TokenProofAnswer.safeParse(answer);
  if (res.ok && parsed.success && parsed.data.proof === (await expectedProof(token, nonce, port)))
    return { kind: 'proven' };
  return { kind: 'impostor', why: res.ok ? 'it answered the token proof wrongly' : `it answered HTTP ${res.status}` };
}

/** Proofs asked at the same time share one round trip (a burst of REST calls costs one proof). */
export function sharedProver(base: string, token: string): () => Promise<PeerProof> {
  let pending: Promise<PeerProof> | undefined;
  return () => (pending ??= proveBridge(base, token).finally(() => (pending = undefined)));
}
