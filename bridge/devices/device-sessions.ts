import { createHmac, createPublicKey, randomBytes, verify as verifySignature } from 'node:crypto';
import { credentialHash } from '../credentials.js';
import { Forbidden, NotFound } from '../errors.js';
import { sameSecret } from '../token.js';
import type { Device, Devices } from './devices.js';

/** How long a challenge may wait for its signature. */
export const CHALLENGE_TTL_MS = 60_000;
/** Challenges waiting at once (the oldest give way): asking for one costs the asker nothing it could hoard. */
const CHALLENGES_KEPT = 1024;
/** Sessions one device keeps (each reconnection opens one; the oldest give way). */
const SESSIONS_PER_DEVICE = 8;
/** A session's longest life: the window opens a new one at every reconnection anyway. */
export const SESSION_TTL_MS = 24 * 3600_000;

/** What a device's key signs to open a session, and what the bridge's proof is over. */
export const sessionMessage = (challenge: string, id: string) => `aiti-device-session\n${challenge}\n${id}`;
export const proofMessage = (nonce: string, id: string) => `aiti-device-proof\n${nonce}\n${id}`;

/**
 * How a paired device signs in, each time its window (re)connects, without ever holding a token that could be
 * copied: the window asks for a challenge with a fresh nonce; the bridge answers with a proof that it is the bridge
 * the device paired with (an HMAC of the nonce with that device's proof key: a program squatting the port has no
 * such key, and the window sends it nothing) and a challenge; the device signs the challenge with its private key,
 * which its browser keeps non-extractable in the window's own origin; the bridge checks the signature with the
 * public key it kept and opens a session: a bearer token `aiti_device_<id>_<secret>` that lives in this process's
 * memory only. A squatter can only hold the port while the bridge that issued a session is gone, so a session token
 * it might be sent is worthless to it; a link to another port of the same host carries nothing (there is no cookie).
 */
export class DeviceSessions {
  private readonly challenges = new Map<string, { deviceId: string; at: number }>();
  private readonly sessions = new Map<string, Array<{ hash: string; at: number }>>();

  constructor(
    private readonly devices: Pick<Devices, 'get' | 'used' | 'onRevoke'>,
    private readonly now: () => number = Date.now,
  ) {
    devices.onRevoke((device) => this.sessions.delete(device.id));
  }

  /**
   * The bridge's proof for the device's nonce, and a challenge for the device to sign. An id it does not know is a
   * 404 its window shows as "no longer paired" (ids are 64 random bits; a squatter that answers so only tells the
   * device to pair again, and still gets nothing).
   */
  challenge(deviceId: string, nonce: string): { proof: string; challenge: string } {
    const device = this.devices.get(deviceId);
    if (!device?.proofKey)
      throw new NotFound(
        `no device "${deviceId}" is paired with this bridge (it was revoked at the desk, or paired before devices had keys): pair it again`,
        'id',
      );
    const key = Buffer.from(device.proofKey, 'base64url');
    const proof = createHmac('sha256', key).update(proofMessage(nonce, deviceId)).digest('base64url');
    const challenge = randomBytes(24).toString('base64url');
    this.sweepChallenges();
    this.challenges.set(challenge, { deviceId, at: this.now() });
    return { proof, challenge };
  }

  /** A signed challenge opens a session; anything else is refused the same way (403). */
  open(deviceId: string, challenge: string, signature: string): string {
    const asked = this.challenges.get(challenge);
    this.challenges.delete(challenge);
    const device = this.devices.get(deviceId);
    const refused = new Forbidden(
      'this device could not sign in: it is not paired with this bridge (revoked, or paired elsewhere), or its challenge is used or older than a minute; pair it again if this persists',
    );
    if (!asked || asked.deviceId !== deviceId || this.now() - asked.at > CHALLENGE_TTL_MS) throw refused;
    if (!device?.publicKey || !this.signedBy(device, sessionMessage(challenge, deviceId), signature)) throw refused;
    const token = `aiti_device_${deviceId}_${randomBytes(32).toString('base64url')}`;
    const kept = (this.sessions.get(deviceId) ?? []).filter((s) => this.now() - s.at < SESSION_TTL_MS);
    kept.push({ hash: credentialHash(token), at: this.now() });
    this.sessions.set(deviceId, kept.slice(-SESSIONS_PER_DEVICE));
    this.devices.used(device);
    return token;
  }

  /** The device a session token belongs to; undefined for anything else (a revoked device's sessions are gone). */
  verify(token: string, deviceId: string): Device | undefined {
    const device = this.devices.get(deviceId);
    const hash = credentialHash(token);
    const found = this.sessions
      .get(deviceId)
      ?.find((s) => sameSecret(s.hash, hash) && this.now() - s.at < SESSION_TTL_MS);
    if (!device || !found) return undefined;
    this.devices.used(device);
    return device;
  }

  private signedBy(device: Device, message: string, signature: string): boolean {
    try {
      const key = createPublicKey({ key: { ...device.publicKey }, format: 'jwk' });
      return verifySignature(
        'sha256',
        Buffer.from(message),
        { key, dsaEncoding: 'ieee-p1363' },
        Buffer.from(signature, 'base64url'),
      );
    } catch {
      return false;
    }
  }

  private sweepChallenges(): void {
    const now = this.now();
    for (const [challenge, { at }] of this.challenges) {
      if (now - at <= CHALLENGE_TTL_MS && this.challenges.size < CHALLENGES_KEPT) break;
      this.challenges.delete(challenge);
    }
  }
}
