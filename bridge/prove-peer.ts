import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { credentialHash, credentialProof, parseCredential } from './credentials.js';
import { sameSecret, tokenProof } from './token.js';

/**
 * Before a token leaves for the bridge, the bridge proves it holds that token: it answers
 * `GET /bridge/token-proof?nonce=&of=` with the HMAC of a fresh nonce and its port, keyed with the token. A
 * program that took the port after the bridge stopped (any local user can) cannot answer, and is sent nothing.
 * Node's own http client, no zod: the stdio shim uses this too and must start as fast as Node does.
 */

/** Where a client reaches the bridge: a URL, and for `AITI_BRIDGE_URL=unix:…` the socket it goes through. */
export interface BridgeAddress {
  /** any URL on the bridge (`http://localhost/…` for a Unix socket) */
  url: URL;
  socketPath?: string;
}

/**
 * `proven`: the peer holds the token; `impostor`: something answered, and it is not a bridge holding this token;
 * `unreachable`: nothing answered (the bridge is down or starting): try again later.
 */
export type PeerProof = { kind: 'proven' } | { kind: 'impostor'; why: string } | { kind: 'unreachable'; why: string };

/** The port a proof is bound to: the URL's (or its scheme's default); 0 for a Unix socket, which has none. */
export function proofPort(address: BridgeAddress): number {
  if (address.socketPath !== undefined) return 0;
  return Number(address.url.port || (address.url.protocol === 'https:' ? 443 : 80));
}

/** Asks the peer at `address` to prove it holds `token` (the human's, or with `of: 'agent'` the agents'). */
export async function provePeer(
  address: BridgeAddress,
  token: string,
  of: 'human' | 'agent' = 'human',
  timeoutMs = 3000,
): Promise<PeerProof> {
  const nonce = randomBytes(24).toString('base64url');
  // an agent token made for the remote listener is proven by its id, keyed with its hash, bound to no port (a
  // tunnel puts the bridge behind a port of its own): credentials.ts
  const named = of === 'agent' ? parseCredential(token) : undefined;
  const expected =
    named?.kind === 'agent'
      ? credentialProof(credentialHash(token), nonce, named.id)
      : tokenProof(token, nonce, proofPort(address));
  const url = new URL(
    `/bridge/token-proof?nonce=${nonce}&of=${of}${named?.kind === 'agent' ? `&id=${named.id}` : ''}`,
    address.url,
  );
  let answer: { status: number; body: string };
  try {
    answer = await get(url, address.socketPath, timeoutMs);
  } catch (error) {
    return { kind: 'unreachable', why: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  }
  let proof: unknown;
  try {
    proof = (JSON.parse(answer.body) as { proof?: unknown }).proof;
  } catch {
    // judged below
  }
  if (answer.status === 200 && typeof proof === 'string' && sameSecret(proof, expected)) return { kind: 'proven' };
  const said = answer.status === 200 ? 'a wrong proof' : `HTTP ${answer.status}`;
  return { kind: 'impostor', why: `it answered the token proof with ${said}` };
}

/** What to tell the person when something else answers where the bridge should be. */
export function impostorText(where: string, why: string): string {
  return `something else answers on ${where}, not the AITI bridge that holds this token (${why}), so it was sent nothing: another program took the port (perhaps another user's, after the bridge stopped), or the bridge there runs with another token or data dir. Stop that program, or start the bridge again and reconnect`;
}

function get(url: URL, socketPath: string | undefined, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = request(url, { method: 'GET', timeout: timeoutMs, ...(socketPath ? { socketPath } : {}) });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        // a proof is a few dozen bytes: whatever sends more is not the bridge
        if ((body += chunk).length > 4096) res.destroy();
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.end();
  });
}
