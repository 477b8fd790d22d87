import {
  DeviceChallengeAnswer,
  DeviceSessionAnswer,
  TokenProofAnswer,
  type DevicePublicKey,
} from '../../../bridge/protocol/index.js';
import type { PeerProof } from '../token-proof.js';

/**
 * A paired device signs in without holding anything that could be copied (bridge/devices/device-sessions.ts): its
 * key pair was made by this browser with the private half non-extractable, and lives in the window's own origin
 * (device-store.ts), so only this origin's scripts can use it and no server is ever sent it. Each sign-in first
 * has the bridge prove itself with the proof key it gave at pairing (kept non-extractable too, for verifying only);
 * a program that took the port gets nothing. WebCrypto and fetch only: the tests sign in with this same code.
 */
export interface DeviceKeys {
  deviceId: string;
  /** ECDSA P-256 private key, non-extractable, for signing */
  signKey: CryptoKey;
  /** HMAC-SHA256 key, non-extractable, for verifying the bridge's proofs */
  proofKey: CryptoKey;
}

const encoder = new TextEncoder();

/** Said when the desk revoked this device (or it was never paired with this bridge). */
export const UNPAIRED = 'this device is no longer paired with the bridge (it was revoked at the desk): pair it again';

export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '');
}

export function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  let binary = '';
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    // not base64: an empty proof, which verifies nothing
  }
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const nonce = () => base64url(crypto.getRandomValues(new Uint8Array(24)));

/** A new key pair whose private half cannot leave this browser; the public half as the bridge takes it. */
export async function makeDeviceKey(): Promise<{ signKey: CryptoKey; publicKey: DevicePublicKey }> {
  const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
  const jwk = await crypto.subtle.exportKey('jwk', pair.publicKey);
  return { signKey: pair.privateKey, publicKey: { kty: 'EC', crv: 'P-256', x: jwk.x ?? '', y: jwk.y ?? '' } };
}

/** The bridge's proof key, kept for verifying only and never readable again. */
export function importProofKey(raw: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', fromBase64url(raw), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

async function getJson(url: URL): Promise<{ ok: boolean; status: number; json: unknown }> {
  const res = await fetch(url, { cache: 'no-store', credentials: 'omit' });
  let json: unknown;
  try {
    json = await res.json();
  } catch {
    json = undefined;
  }
  return { ok: res.ok, status: res.status, json };
}

const unreachable = (error: unknown): { kind: 'unreachable'; why: string } => ({
  kind: 'unreachable',
  why: error instanceof Error ? error.message : String(error),
});

/** Before the one-time code is sent: what answers at `base` proves it holds that code (an HMAC of a fresh nonce). */
export async function proveCode(base: string, code: string): Promise<PeerProof> {
  const sent = nonce();
  let answer;
  try {
    answer = await getJson(new URL(`bridge/pair/proof?nonce=${sent}`, base));
  } catch (error) {
    return unreachable(error);
  }
  const parsed = TokenProofAnswer.safeParse(answer.json);
  if (!answer.ok || !parsed.success)
    return { kind: 'impostor', why: `it answered the pairing proof with HTTP ${answer.status}` };
  const key = await crypto.subtle.importKey('raw', encoder.encode(code), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  const good = await crypto.subtle.verify(
    'HMAC',
    key,
    fromBase64url(parsed.data.proof),
    encoder.encode(`aiti-pair-proof\n${sent}`),
  );
  return good
    ? { kind: 'proven' }
    : {
        kind: 'impostor',
        why: 'it does not hold this pairing code (the code is old or used, or this is not the bridge)',
      };
}

export type SignIn = { kind: 'signed-in'; token: string } | Exclude<PeerProof, { kind: 'proven' }>;

/**
 * Signs in at `base`: the bridge's proof first (nothing is sent to what cannot give it), then the signed challenge;
 * answered with a session token that lives in memory only.
 */
export async function signIn(base: string, keys: DeviceKeys): Promise<SignIn> {
  const sent = nonce();
  const id = keys.deviceId;
  try {
    const asked = await getJson(new URL(`bridge/device/challenge?id=${id}&nonce=${sent}`, base));
    if (asked.status === 404) return { kind: 'impostor', why: UNPAIRED };
    const challenge = DeviceChallengeAnswer.safeParse(asked.json);
    if (!asked.ok || !challenge.success)
      return { kind: 'impostor', why: `it answered the device's sign-in with HTTP ${asked.status}` };
    const proven = await crypto.subtle.verify(
      'HMAC',
      keys.proofKey,
      fromBase64url(challenge.data.proof),
      encoder.encode(`aiti-device-proof\n${sent}\n${id}`),
    );
    if (!proven) return { kind: 'impostor', why: 'it is not the bridge this device was paired with' };
    const signature = await crypto.subtle.sign(
      { name: 'ECDSA', hash: 'SHA-256' },
      keys.signKey,
      encoder.encode(`aiti-device-session\n${challenge.data.challenge}\n${id}`),
    );
    const res = await fetch(new URL('bridge/device/session', base), {
      method: 'POST',
      cache: 'no-store',
      credentials: 'omit',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id,
        challenge: challenge.data.challenge,
        signature: base64url(new Uint8Array(signature)),
      }),
    });
    const session = DeviceSessionAnswer.safeParse(await res.json().catch(() => undefined));
    if (res.ok && session.success) return { kind: 'signed-in', token: session.data.token };
    return {
      kind: 'impostor',
      why: res.status === 403 ? UNPAIRED : `the sign-in answered HTTP ${res.status}`,
    };
  } catch (error) {
    return unreachable(error);
  }
}
