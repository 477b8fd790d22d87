import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sameSecret } from './token.js';

/**
 * The credentials of the remote listener, handed out one by one: a paired device's token and an agent token made
 * with `aiti-bridge agent-token create`. Each reads `aiti_<kind>_<id>_<secret>`: the id names the record (shown in
 * lists, asked for by the token proof), the secret is 256 random bits, and the bridge keeps only the sha256 of the
 * whole token, so its files give nobody a usable token.
 */
export type CredentialKind = 'device' | 'agent';

const ID_HEX = 16;
const PATTERN = /^aiti_(device|agent)_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface MintedCredential {
  token: string;
  id: string;
  /** what is stored: sha256 of the token, base64url */
  hash: string;
}

export function mintCredential(kind: CredentialKind): MintedCredential {
  const id = randomBytes(ID_HEX / 2).toString('hex');
  const token = `aiti_${kind}_${id}_${randomBytes(32).toString('base64url')}`;
  return { token, id, hash: credentialHash(token) };
}

/** The kind and id a token names, or undefined when it is not one of these credentials at all. */
export function parseCredential(token: string): { kind: CredentialKind; id: string } | undefined {
  const match = PATTERN.exec(token);
  if (!match) return undefined;
  return { kind: match[1] as CredentialKind, id: match[2] ?? '' };
}

export function credentialHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Whether `token` is the one whose hash was stored. */
export function matchesHash(token: string, hash: string): boolean {
  return sameSecret(credentialHash(token), hash);
}

/**
 * Proof that the bridge holds the record of credential `id` (its stored hash), for the holder's fresh nonce. Unlike
 * the local listener's proof it names no port: every tunnel (ssh -R, Tailscale Serve, cloudflared) puts the bridge
 * behind a port of its own, so the port the client dialled is never the one the bridge listens on.
 */
export function credentialProof(hash: string, nonce: string, id: string): string {
  return createHmac('sha256', hash).update(`aiti-credential-proof\n${nonce}\n${id}`).digest('base64url');
}
